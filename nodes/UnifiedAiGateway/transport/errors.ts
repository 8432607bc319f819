import { relayWords } from './relayWords';
import { createdAfter, type Created } from './created';
import {
	GATEWAY_ERROR_RULES,
	looksLikeHtml,
	type ErrorFacts,
	type ErrorRule,
	type ReadFacts,
} from './errorRules';
import { asObject } from './responses';

export type { ErrorFacts } from './errorRules';

export interface ExplainedError {
	message: string;
	description: string;
	code?: string;
	/** The name of the rule of transport/errorRules.ts that explained it. */
	rule: string;
	/** For a billed request: whether a job was created (the rule's word, else the answer's status). */
	created?: Created;
}

/** The gateway's own words, from whichever envelope it used. */
export function gatewayText(body: unknown): string {
	if (typeof body === 'string') {
		if (looksLikeHtml(body)) return '';
		return body.trim().slice(0, 500);
	}
	const root = asObject(body);
	if (!root) return '';
	const error = asObject(root.error);
	const data = asObject(root.data);
	const candidates = [
		error?.message,
		typeof root.error === 'string' ? root.error : undefined,
		root.message,
		root.msg !== 'success' ? root.msg : undefined,
		root.fail_reason,
		data?.fail_reason,
		asObject(data?.error)?.message,
	];
	const found = candidates.find((c) => typeof c === 'string' && c.trim() !== '');
	return found ? String(found).trim() : '';
}

export function gatewayCode(body: unknown): string | undefined {
	const root = asObject(body);
	if (!root) return undefined;
	const error = asObject(root.error);
	const code =
		error?.code ?? (typeof root.code === 'string' ? root.code : undefined) ?? error?.type;
	return typeof code === 'string' && code !== '' && code !== 'success' ? code : undefined;
}

/** The facts as the rules read them (transport/errorRules.ts ReadFacts). */
export function readFacts(facts: ErrorFacts): ReadFacts {
	const text = gatewayText(facts.body);
	const code = gatewayCode(facts.body);
	const body =
		facts.body !== null && typeof facts.body === 'object' ? JSON.stringify(facts.body) : '';
	return { ...facts, text, code, all: `${code ?? ''} ${text} ${body}` };
}

/** The rule of the table that explains these facts: the first that matches. */
export function ruleFor(
	facts: ReadFacts,
	rules: readonly ErrorRule[] = GATEWAY_ERROR_RULES,
): ErrorRule {
	const rule = rules.find((r) => r.matches(facts));
	if (!rule)
		throw new Error(
			'The gateway-error table has no rule for these facts: its last rule must match everything',
		);
	return rule;
}

/**
 * Every failed gateway call explained by the first matching rule of the table
 * (transport/errorRules.ts): a message naming what failed, the gateway's own words and status in
 * the description with what to do, and, for a billed request, whether a job was created.
 */
export function explainGatewayError(facts: ErrorFacts): ExplainedError {
	const read = readFacts(facts);
	const rule = ruleFor(read);
	const created = facts.billed
		? (rule.created ??
			createdAfter({
				status: facts.status,
				networkCode: facts.networkCode,
				redirectStatus: facts.unfollowedRedirect ? facts.status : undefined,
				refused: facts.refusedWith200,
			}))
		: undefined;
	const out = rule.explain({ ...read, created });
	const said = read.text ? `Gateway said: ${relayWords(read.text)}` : '';
	const status = facts.status
		? `HTTP status: ${facts.status}${read.code ? `, code: ${read.code}` : ''}`
		: '';
	const description = out.description ?? [said, status, out.advice].filter(Boolean).join('\n');
	return { code: out.code, message: out.message, description, rule: rule.name, created };
}
