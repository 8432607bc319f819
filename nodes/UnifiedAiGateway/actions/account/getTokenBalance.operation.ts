import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { balanceJson, readBalance } from '../../api/account';
import { forEachItem, type RunOptions } from '../../engine/running/perItem';

const displayOptions = { show: { resource: ['account'], operation: ['getTokenBalance'] } };

/** No fields: the key is the credential's. */
const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * One item per input item: the key's balance, free. GET /v1/balance where the gateway has it, else
 * the relay's quota routes read once for the whole run (20 reads per 20 minutes per IP), so every
 * item gets the same reading.
 */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	return await forEachItem(this, run, async (i) =>
		balanceJson(await readBalance(this, 'token', i)),
	);
}
