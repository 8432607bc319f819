import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS, gatewayRequest, SYNC_IMAGE_TIMEOUT_MS } from '../transport/request';
import type { GatewayHost } from '../transport/urls';
import { namingModelsOffered } from './models';
import { relayRequestId } from './usageLog';

export type ImageEndpoint = 'generate' | 'edit';

const PATHS: Record<ImageEndpoint, string> = {
	generate: '/v1/images/generations',
	edit: '/v1/images/edits',
};

/**
 * POST /v1/images/generations or /v1/images/edits, on the main or the alt host
 * (docs/gateway-contract.md §4.4, §4.6, §4.7): the one billed call of an image item. The answer
 * is returned as the gateway sent it (redacted): image URLs for a sync model, else a task id; with
 * the relay's request id (`X-Oneapi-Request-Id`), which names the call's row in its usage log.
 */
export async function postImageJob(
	ctx: IExecuteFunctions,
	job: {
		endpoint: ImageEndpoint;
		host: GatewayHost;
		body: IDataObject;
		model: string;
		sync: boolean;
		/** The model always answers at once (its row's mode is sync). */
		atOnce?: boolean;
		itemIndex: number;
	},
): Promise<{ body: IDataObject; requestId?: string }> {
	const { body, headers } = await namingModelsOffered(ctx, job.model, job.itemIndex, () =>
		gatewayRequest.call(ctx, {
			method: 'POST',
			host: job.host,
			path: PATHS[job.endpoint],
			body: job.body,
			// A sync model holds the connection until the image exists (docs/gateway-contract.md §4.4: at least 300 s).
			timeoutMs: job.sync ? SYNC_IMAGE_TIMEOUT_MS : DEFAULT_TIMEOUT_MS,
			action: `submitting the image ${job.endpoint === 'edit' ? 'edit' : 'generation'}`,
			billed: true,
			// Only a model that never answers with a task: an `either` model's answer may be one.
			...(job.atOnce ? { answeredAtOnce: true } : {}),
			model: job.model,
			itemIndex: job.itemIndex,
			// A synchronous answer may hold its images inline (b64_json): more than a task's kilobytes.
			answer: 'images',
		}),
	);
	const requestId = relayRequestId(headers);
	return { body, ...(requestId ? { requestId } : {}) };
}
