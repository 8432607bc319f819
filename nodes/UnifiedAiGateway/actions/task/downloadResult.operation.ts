import { relayWords } from '../../transport/relayWords';
import {
	NodeOperationError,
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { fileKindOf, videoContentPath, type QueryRoute } from '../../api/tasks/routes';
import { queryTask } from '../../api/tasks/query';
import { forEachItem, type RunOptions } from '../../engine/running/perItem';
import { downloadLimitOptions } from '../../params/downloadOptions';
import { binaryOutputOption, optionsField } from '../../params/fields';
import { itemDownload, itemsPerUrl, taskJson } from '../../pipeline/taskOutput';
import { reportedChargeJson } from '../../api/charges';
import { queryRouteField, requireTaskId, taskIdField } from './taskFields';
import { readBoolean } from '../../params/inputs';

const show = { resource: ['task'], operation: ['downloadResult'] };
const displayOptions = { show };

const properties: INodeProperties[] = [
	taskIdField('downloadResult', '={{ $json.taskId }}'),
	queryRouteField(['downloadResult'], false),
	{
		displayName: 'Use Gateway Content Route',
		name: 'useContentRoute',
		type: 'boolean',
		default: false,
		description:
			'Whether to fetch the video through GET /v1/videos/{ID}/content with the ' +
			'API key (grok video route) instead of the result URL',
		displayOptions: { show: { queryRoute: ['video'] } },
	},
	// Always downloads: the output field and the limits show without a Download switch.
	optionsField(show, [
		binaryOutputOption('The name of the output binary field to put the file in'),
		...downloadLimitOptions('any'),
	]),
];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, run: RunOptions) {
	return await forEachItem(this, run, async (i) => {
		const taskId = requireTaskId(this, i);
		const routeName = this.getNodeParameter('queryRoute', i) as QueryRoute;
		const snapshot = await queryTask(this, routeName, taskId, { itemIndex: i });
		const viaContent =
			routeName === 'video' &&
			readBoolean(this, 'useContentRoute', i, false, 'Use Gateway Content Route');
		if (snapshot.phase !== 'succeeded' || (!viaContent && snapshot.state !== 'succeeded')) {
			throw new NodeOperationError(
				this.getNode(),
				`Task ${taskId} has no result to download yet: status '${snapshot.status}'` +
					(snapshot.progress !== undefined ? ` at ${snapshot.progress}%` : ''),
				{
					itemIndex: i,
					description: snapshot.error
						? `The gateway says: ${relayWords(snapshot.error)}`
						: 'Wait for it with Task → Wait for Completion, then download.',
				},
			);
		}
		const urls = viaContent ? [videoContentPath(taskId)] : snapshot.urls;
		const download = itemDownload(this, i, {
			kind: fileKindOf(routeName),
			baseName: taskId,
			paid: { taskId, expiresAt: snapshot.expiresAt },
			continueOnFail: run.continueOnFail,
		});
		const json = { ...taskJson(snapshot), ...(await reportedChargeJson(this, snapshot, i)) };
		return await itemsPerUrl(this, urls, (url) => ({ ...json, url }), download);
	});
}
