import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OperationModule } from './types';

/** One operation of a resource: its entry in the Operation menu and its module (fields and execute). */
export type OperationEntry = [
	option: INodePropertyOptions & { value: string },
	module: OperationModule,
];

/**
 * A resource as the node lists it (actions/resources.ts): its operations by value, and its fields
 * in form order: the Operation field (the first operation chosen by default), the fields every
 * operation of the resource shows before each operation's own (`shared.before`), each operation's
 * own fields (its .operation.ts), then the shared fields after them.
 */
export function resourceModule(
	resource: string,
	entries: OperationEntry[],
	shared: { before?: INodeProperties[]; after?: INodeProperties[] } = {},
): { operations: Record<string, OperationModule>; description: INodeProperties[] } {
	const firstOperation = entries[0][0].value;
	return {
		operations: Object.fromEntries(entries.map(([option, module]) => [option.value, module])),
		description: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: [resource] } },
				default: firstOperation,
				options: entries.map(([option]) => option),
			},
			...(shared.before ?? []),
			...entries.flatMap(([, module]) => module.description),
			...(shared.after ?? []),
		],
	};
}
