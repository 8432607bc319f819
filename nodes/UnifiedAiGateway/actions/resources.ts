import type { INodeProperties } from 'n8n-workflow';

import * as account from './account';
import * as task from './task';
import type { OperationModule } from './types';

/** Every resource of the node: its operation modules and its fields, in menu order. */
export const RESOURCES: Array<{
	name: string;
	value: string;
	description: string;
	module: { operations: Record<string, OperationModule>; description: INodeProperties[] };
}> = [
	{ name: 'Task', value: 'task', description: 'Read, wait for and download tasks', module: task },
	{ name: 'Account', value: 'account', description: 'Balance and model list', module: account },
];
