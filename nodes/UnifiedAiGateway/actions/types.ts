import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { RunOptions } from '../engine/running/perItem';

/** One operation file: its fields and how it runs over all input items. */
export interface OperationModule {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, run: RunOptions): Promise<INodeExecutionData[]>;
}
