import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { balanceJson, readBalance } from '../../api/account';
import { forEachItem, type RunOptions } from '../../engine/running/perItem';

const displayOptions = { show: { resource: ['account'], operation: ['getUserBalance'] } };

/** No fields: the account is the one behind the credential's key. */
const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * One item per input item: the whole account's balance, free (GET /v1/user/balance). A build on
 * the open-source relay has no such route: the error says to use Get Token Balance.
 */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	return await forEachItem(this, run, async (i) => balanceJson(await readBalance(this, 'user', i)));
}
