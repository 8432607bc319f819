import { asObject, certificateProblem } from './responses';

/**
 * Whether a failed billed request left a job (and a charge) behind. Only what we know counts:
 * 'no' when the request never left this machine or the gateway said it did not process it;
 * 'yes' when the gateway accepted it (a 200 whose answer we could not use); else 'unknown'.
 */
export type Created = 'yes' | 'no' | 'unknown';

/** Failures that happen before a request is on the wire: nothing reached the gateway (a refused certificate too). */
const NOT_SENT = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ERR_INVALID_URL',
]);

/** 4xx answers that mean "not processed" (the gateway checks these before it runs or charges). */
const REFUSED_STATUS = new Set([400, 401, 403, 429]);

/**
 * The code of new-api's performance guard (middleware/performance.go): `system_cpu_overloaded`,
 * `system_memory_overloaded`, `system_disk_overloaded`, and whatever resource a later build adds.
 */
export const OVERLOADED_CODE = /^system_([a-z]+)_overloaded$/;

/**
 * Whether an answer is a refusal the relay gives before it bills anything: its performance guard's
 * 503, which runs ahead of the key check on every relay route (router/relay-router.go), so no
 * upstream was asked. The retry (request.ts) and the created verdict (errorRules.ts) both ask here.
 */
export function refusedBeforeBilling(status: number | undefined, body: unknown): boolean {
	if (status !== 503) return false;
	const root = asObject(body);
	// The guard answers in the relay's `error` object; a proxy that flattens it keeps the code.
	const code = asObject(root?.error)?.code ?? root?.code;
	return typeof code === 'string' && OVERLOADED_CODE.test(code);
}

/**
 * Created by the answer's status alone. A gateway code or text that refuses whatever the status
 * (`model_not_found`, a quota) is said by its rule in transport/errorRules.ts, which outranks this.
 */
export function createdAfter(facts: {
	status?: number;
	networkCode?: string;
	redirectStatus?: number;
	refused?: boolean;
}): Created {
	// A 2xx whose body refuses (success: false, code >= 400, an error object): not processed.
	if (facts.refused) return 'no';
	if (facts.redirectStatus !== undefined)
		return facts.redirectStatus === 307 || facts.redirectStatus === 308 ? 'no' : 'unknown';
	if (facts.status === undefined)
		return NOT_SENT.has(facts.networkCode ?? '') || certificateProblem(facts.networkCode)
			? 'no'
			: 'unknown';
	if (REFUSED_STATUS.has(facts.status)) return 'no';
	if (facts.status >= 200 && facts.status < 300) return 'yes';
	return 'unknown';
}

/**
 * The same verdicts for a call answered at once (a chat, a synchronous image, speech): it leaves
 * no task to look for, only a row in the key's usage log.
 */
export const AT_ONCE_NOTE: Record<Created, { suffix: string; advice: string }> = {
	no: {
		suffix: ' (created: no)',
		advice: 'Created: no. The gateway did not bill this call: running the item again is safe.',
	},
	unknown: {
		suffix: ' (created: unknown)',
		advice:
			'Created: unknown. The call reached the gateway but its answer failed or was lost: it ' +
			"may have been made and billed. Look at the key's usage log on the gateway before " +
			'running this item again; the node never resends it by itself.',
	},
	yes: {
		suffix: ' (created: yes)',
		advice:
			'Created: yes. The gateway made (and charged) the call, but its answer could not be ' +
			"used. The key's usage log shows the charge; running the item again is billed again.",
	},
};

export const CREATED_NOTE: Record<Created, { suffix: string; advice: string }> = {
	no: {
		suffix: ' (created: no)',
		advice:
			'Created: no. The gateway did not process this request, so nothing was charged: running the item again is safe.',
	},
	unknown: {
		suffix: ' (created: unknown)',
		advice:
			'Created: unknown. The request reached the gateway but its answer failed ' +
			'or was lost: the job may have been created and billed. Check the ' +
			"account's task list before running this item again; the node never " +
			'resends it by itself.',
	},
	yes: {
		suffix: ' (created: yes, task ID unknown)',
		advice:
			'Created: yes. The gateway accepted (and charged) the job, but its answer ' +
			'held no task ID we could read. Do not run the item again: find the job ' +
			"in the account's task list.",
	},
};
