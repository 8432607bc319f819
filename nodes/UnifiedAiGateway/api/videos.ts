import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { gatewayRequest } from '../transport/request';
import { namingModelsOffered } from './models';

/**
 * POST a video job to one of the submit routes (docs/gateway-contract.md §4.8 `/v1/video/generations`,
 * §4.9 `/v1/videos` as JSON or multipart): the one billed call of a video item, pre-charged when
 * accepted. The answer is returned as the gateway sent it (redacted).
 */
export async function postVideoJob(
	ctx: IExecuteFunctions,
	job: {
		path: string;
		body: IDataObject | FormData;
		model: string;
		timeoutMs: number;
		itemIndex: number;
	},
): Promise<IDataObject> {
	const response = await namingModelsOffered(ctx, job.model, job.itemIndex, () =>
		gatewayRequest.call(ctx, {
			method: 'POST',
			path: job.path,
			body: job.body,
			action: 'submitting the video job',
			billed: true,
			charge: 'the video pre-charge',
			answer: 'submit',
			model: job.model,
			timeoutMs: job.timeoutMs,
			itemIndex: job.itemIndex,
		}),
	);
	return response.body;
}
