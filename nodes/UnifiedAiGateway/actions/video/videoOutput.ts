import type { IDataObject } from 'n8n-workflow';

import type { TaskSnapshot } from '../../api/tasks/snapshot';
import type { ModelSpec } from '../../registry/models';
import type { PreparedVideo } from './videoBody';

/** docs/gateway-contract.md §2.8 gives no video price: the site price applies, charged in advance by duration. */
const VIDEO_PRICE_NOTE = 'site price applies; video is pre-charged by duration';
/** An id without a row: no length or price is assumed for it. */
const UNKNOWN_PRICE_NOTE =
	"unknown price: this model is not in the node's model table; the site price applies, pre-charged by duration";

function text(...values: unknown[]): string | undefined {
	const found = values.find((v) => v !== undefined && v !== null && v !== '');
	return found === undefined ? undefined : String(found);
}

/** Price and id advice that follow from the model's row. */
export function modelNotes(modelId: string, model: ModelSpec | undefined): IDataObject {
	const notes: IDataObject = {
		estimatedCost: model?.price
			? `${model.price.baseUsd} USD per ${model.price.per} (base price; the site price applies)`
			: model
				? VIDEO_PRICE_NOTE
				: UNKNOWN_PRICE_NOTE,
	};
	// A retired model says so (docs/gateway-contract.md §10.9).
	if (model?.description) notes.note = model.description;
	if (model?.recommendedId) {
		notes.recommendedModelId = model.recommendedId;
		notes.note = `'${modelId}' is a legacy alias kept for existing clients; use '${model.recommendedId}' in new workflows`;
	}
	if (!model)
		notes.note = `'${modelId}' is not in this node's model table: only the prompt, reference images, the unified request's fields you set and Additional Body Fields were sent`;
	return notes;
}

/** Length and picture of the video: what the gateway reports, else what was asked for. */
export function videoFacts(p: PreparedVideo, snapshot: TaskSnapshot): IDataObject {
	const raw = snapshot.raw;
	const data = (raw.data && typeof raw.data === 'object' ? raw.data : {}) as IDataObject;
	const metadata = (p.values.metadata ?? {}) as IDataObject;
	const facts: IDataObject = {
		model: text(raw.model, p.modelId),
		seconds: text(
			raw.seconds,
			data.seconds,
			p.values.seconds,
			p.values.duration,
			metadata.durationSeconds,
		),
		size: text(raw.size, data.size, p.values.size),
		aspectRatio: text(p.values.aspect_ratio, metadata.aspectRatio),
		resolution: text(p.values.resolution, metadata.resolution),
		route: p.route,
	};
	return Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== undefined));
}
