import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { forEachItem, type RunOptions } from '../../engine/running/perItem';
import { balanceOperation } from '../../api/account';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, run: RunOptions) {
	return await forEachItem(this, run, async (i) => await balanceOperation.call(this, 'user', i));
}
