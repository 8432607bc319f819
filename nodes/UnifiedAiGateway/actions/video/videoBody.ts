import type { IDataObject } from 'n8n-workflow';

import { mergeBody } from '../../params/additionalBody';
import type { ModelSpec } from '../../registry/models';
import type { VideoReferences } from './videoReferences';
import type { VideoRoute } from './submitRoutes';

/** One item's video request, checked and complete except for uploads (done at submit). */
export interface PreparedVideo {
	modelId: string;
	model?: ModelSpec;
	route: VideoRoute;
	prompt: string;
	/** The registry fields, already at their body keys (metadata nested). */
	values: IDataObject;
	/** Additional Body Fields (JSON), checked not to replace anything above. */
	extra: IDataObject;
	refs: VideoReferences;
	timeoutMs: number;
}

/** Body key the reference URLs go in: the row's, else `images` (what most channels read). */
export function referenceKey(model: ModelSpec | undefined): string {
	return model?.limits?.referenceField ?? 'images';
}

/** The JSON body of the unified and compatibility routes (docs/gateway-contract.md §4.8). */
export function jsonBody(p: PreparedVideo, urls: string[]): IDataObject {
	const body: IDataObject = { model: p.modelId, prompt: p.prompt, ...p.values };
	if (urls.length > 0) {
		const key = referenceKey(p.model);
		// `image` holds one reference (docs/gateway-contract.md §4.8); several go in `images`, as every other key takes them.
		if (key === 'image' && urls.length > 1) body.images = urls;
		else body[key] = key === 'image' ? urls[0] : urls;
	}
	return mergeBody(body, p.extra);
}

/** The grok multipart body (docs/gateway-contract.md §4.9): text fields, then one `input_reference` part per file. */
export function multipartBody(p: PreparedVideo): FormData {
	const form = new FormData();
	const fields = mergeBody({ model: p.modelId, prompt: p.prompt, ...p.values }, p.extra);
	for (const [key, value] of Object.entries(fields)) {
		if (value === undefined || value === null) continue;
		form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
	}
	const fileField = p.model?.limits?.fileReferenceField ?? 'input_reference';
	for (const file of p.refs.files) {
		// No Content-Type header is set anywhere: FormData picks the multipart boundary itself.
		form.append(
			fileField,
			new Blob([file.buffer as unknown as BlobPart], { type: file.mimeType }),
			file.fileName,
		);
	}
	return form;
}
