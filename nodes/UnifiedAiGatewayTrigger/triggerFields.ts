import type { INodeProperties } from 'n8n-workflow';

import { BALANCE_KIND_OPTIONS } from '../UnifiedAiGateway/api/account';
import { TASK_LANGUAGE } from '../UnifiedAiGateway/actions/task/taskFields';
import { downloadLimitOptions } from '../UnifiedAiGateway/params/downloadOptions';
import { binaryOutputOption, optionsField } from '../UnifiedAiGateway/params/fields';
import { QUERY_ROUTE_OPTIONS } from '../UnifiedAiGateway/api/tasks/routes';
import { POLL_POLICY } from '../UnifiedAiGateway/engine/waiting/pollPolicy';
import { PERMANENT_ERRORS_TO_FAIL } from './taskEvent';

const task = { show: { event: ['taskFinished'] } };
const balance = { show: { event: ['balanceBelow'] } };

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		default: 'taskFinished',
		options: [
			{
				name: 'Balance Below',
				value: 'balanceBelow',
				description: 'When the remaining token or user balance drops below a threshold',
			},
			{
				name: 'Task Finished',
				value: 'taskFinished',
				description: 'When a task submitted elsewhere (without waiting) finishes',
			},
		],
	},
	{
		displayName: 'Task IDs',
		name: 'taskIds',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder: 'task_0123456789abcdef0123456789abcdef',
		description:
			'The tasks to watch: one ID per line or comma-separated; an expression ' +
			'may also return a list. Each task is emitted once. IDs removed from the ' +
			'list are forgotten.',
		displayOptions: task,
	},
	{
		displayName: 'Query Route',
		name: 'queryRoute',
		type: 'options',
		default: 'generic',
		options: QUERY_ROUTE_OPTIONS,
		description: 'Where to read the tasks. A task is known on the route and host that created it.',
		displayOptions: task,
	},
	{
		...TASK_LANGUAGE,
		displayOptions: { show: { event: ['taskFinished'], queryRoute: ['generic'] } },
	},
	{
		displayName: 'Include Failures',
		name: 'includeFailures',
		type: 'boolean',
		default: false,
		description:
			`Whether to also emit tasks that failed or were cancelled (state ` +
			`'failed', with the gateway's reason in 'error'), and tasks the gateway ` +
			`could not read ${PERMANENT_ERRORS_TO_FAIL} polls in a row ` +
			`(task_not_exist, 404, 401, 403 or an unreadable answer; one such answer ` +
			`alone is treated as a passing fault). Off: only succeeded tasks are ` +
			`emitted; unreadable tasks keep being watched until they time out. Either ` +
			`way, a task the gateway reports completed without a result URL ${POLL_POLICY.readsWithoutUrl} ` +
			`polls in a row is emitted once (state 'failed', what to do in 'error'): ` +
			`it is finished and may be billed.`,
		displayOptions: task,
	},
	{
		displayName: 'Timeout (Minutes)',
		name: 'timeoutMinutes',
		type: 'number',
		typeOptions: { minValue: 0.01, numberPrecision: 2 },
		default: 30,
		description:
			'How long after this trigger first sees a task ID to stop watching it. A ' +
			"task still unfinished then is always emitted once with state 'timeout' " +
			'(whatever Include Failures says): it may still finish on the gateway.',
		displayOptions: task,
	},
	{
		displayName: 'Download Files',
		name: 'download',
		type: 'boolean',
		default: false,
		description:
			'Whether to download the result files of succeeded tasks into binary ' +
			'data. Result URLs expire, so downloading keeps the files. Where the ' +
			'files go and their limits are in Options.',
		displayOptions: task,
	},
	optionsField({ event: ['taskFinished'] }, [
		binaryOutputOption(
			'The output binary field for the first file (with Download Files on); ' +
				'further files of the same task go to <field>_2, <field>_3, ...',
		),
		...downloadLimitOptions('any'),
	]),
	{
		displayName: 'Balance',
		name: 'balanceType',
		type: 'options',
		default: 'token',
		options: BALANCE_KIND_OPTIONS,
		displayOptions: balance,
	},
	{
		displayName: 'Threshold',
		name: 'threshold',
		type: 'number',
		typeOptions: { numberPrecision: 4 },
		default: 1,
		description:
			'Emit once when the remaining balance goes below this amount (in the ' +
			"gateway's unit: USD, CNY or tokens), and again only after it has been " +
			'back at or above it. Unlimited quota never fires.',
		displayOptions: balance,
	},
];
