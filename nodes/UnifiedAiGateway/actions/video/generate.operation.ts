import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { RunOptions } from '../../engine/running/perItem';
import { runGeneration } from '../../pipeline/generation';
import { VIDEO_ADAPTER } from './videoAdapter';

export { description } from './videoFields';

export async function execute(this: IExecuteFunctions, run: RunOptions): Promise<INodeExecutionData[]> {
	return await runGeneration(this, run, VIDEO_ADAPTER);
}
