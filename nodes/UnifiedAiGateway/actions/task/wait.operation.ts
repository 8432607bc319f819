import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { runJobs, type Submitted } from '../../engine/jobs';
import type { QueryRoute } from '../../engine/routes';
import { concurrencyField, downloadFields, readWaitSettings, waitFields } from '../../helpers/fields';
import type { RunOptions } from '../../helpers/perItem';
import { itemsPerUrl, taskJson } from '../../helpers/taskOutput';
import { requireTaskId } from './get.operation';
import { languageField, queryRouteField, taskIdField } from './fields';

const show = { resource: ['task'], operation: ['waitForCompletion'] };

const DEFAULT_WAIT_MINUTES = 10;

export const description: INodeProperties[] = [
	taskIdField('waitForCompletion', '={{ $json.taskId }}'),
	queryRouteField(['waitForCompletion'], true),
	languageField(['waitForCompletion']),
	...waitFields(show, DEFAULT_WAIT_MINUTES).filter((field) => field.name !== 'waitForCompletion').map((field) => ({
		...field,
		displayOptions: { show },
	})),
	...downloadFields(show, false, 'result files'),
	concurrencyField(show),
];

const ROUTES: QueryRoute[] = ['generic', 'image', 'video', 'alt'];

/** Waits for tasks created earlier (pending items, stored ids) without submitting anything. */
export async function execute(this: IExecuteFunctions, run: RunOptions) {
	const startedAt = Date.now();
	return await runJobs(this, run.items.length, {
		noun: 'task',
		continueOnFail: run.continueOnFail,
		concurrency: this.getNodeParameter('concurrency', 0, 5) as number,
		wait: readWaitSettings(this, DEFAULT_WAIT_MINUTES),
		prepare: (i) => {
			const chosen = this.getNodeParameter('queryRoute', i) as string;
			const fromItem = run.items[i].json.queryRoute as QueryRoute | undefined;
			const route: QueryRoute =
				chosen === 'auto' ? (fromItem && ROUTES.includes(fromItem) ? fromItem : 'generic') : (chosen as QueryRoute);
			const language = route === 'generic' ? (this.getNodeParameter('language', i, 'en') as string) : undefined;
			return { taskId: requireTaskId(this, i), route, language };
		},
		// Nothing is sent here: the task exists already, so "submitting" only hands it to the engine.
		submit: async (prepared): Promise<Submitted> => ({ ...prepared, startedAt, raw: {} as IDataObject }),
		succeed: async (_prepared, submitted, i, snapshot) => {
			const download = this.getNodeParameter('download', i, false) as boolean;
			const json = { ...taskJson(snapshot!), queryRoute: submitted.route, raw: snapshot!.raw };
			if (!download) return [{ json }];
			return await itemsPerUrl(this, snapshot!.urls, (url) => ({ ...json, url }), {
				itemIndex: i,
				binaryProperty: this.getNodeParameter('binaryPropertyOutput', i, 'data') as string,
				baseName: snapshot!.taskId,
				defaultMimeType: submitted.route === 'video' ? 'video/mp4' : 'image/png',
			});
		},
	});
}
