import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { downloadToBinary } from '../engine/downloads';
import type { TaskSnapshot } from '../engine/snapshot';
import { isToolRun } from '../engine/toolMode';

/** A task as our outputs show it, whatever route and shape it came from. */
export function taskJson(snapshot: TaskSnapshot): IDataObject {
	return {
		taskId: snapshot.taskId,
		status: snapshot.status,
		state: snapshot.state,
		progress: snapshot.progress,
		url: snapshot.urls[0],
		urls: snapshot.urls,
		...(snapshot.error ? { error: snapshot.error } : {}),
		...(snapshot.estimatedTimeS !== undefined ? { estimatedTimeSeconds: snapshot.estimatedTimeS } : {}),
	};
}

export interface FileOutputOptions {
	itemIndex: number;
	binaryProperty: string;
	baseName: string;
	defaultMimeType: string;
}

/**
 * One output item per URL: its json plus, when asked, the file under the chosen binary field.
 * Never a file for an AI Agent's tool call: n8n hands tools' JSON to the model and drops binaries,
 * so a download there would only cost time and a file nobody gets; the URL is the result.
 */
export async function itemsPerUrl(
	ctx: IExecuteFunctions,
	urls: string[],
	json: (url: string, index: number) => IDataObject,
	download: FileOutputOptions | undefined,
): Promise<INodeExecutionData[]> {
	const items: INodeExecutionData[] = [];
	const fetchFiles = download !== undefined && !isToolRun(ctx);
	for (const [index, url] of urls.entries()) {
		const item: INodeExecutionData = { json: json(url, index) };
		if (download && fetchFiles) {
			const binary = await downloadToBinary(ctx, url, {
				itemIndex: download.itemIndex,
				baseName: urls.length > 1 ? `${download.baseName}-${index + 1}` : download.baseName,
				defaultMimeType: download.defaultMimeType,
			});
			item.binary = { [download.binaryProperty]: binary };
		}
		items.push(item);
	}
	return items;
}
