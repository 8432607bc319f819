/*
 * Bounds the gateway's document does not give (docs/gateway-contract.md §8), taken from what gateways of this kind
 * accept.
 */

/**
 * Prompt length. docs/gateway-contract.md §4.4-§4.8 give none; OpenAI's image API, whose wire format these routes
 * follow, takes at most 32,000 characters for GPT image prompts, and relays pass the text on
 * unchanged. A longer prompt is refused before anything is sent.
 */
export const MAX_PROMPT_CHARS = 32_000;

/** The refusal text for a prompt past MAX_PROMPT_CHARS: names the length and where the bound comes from. */
export function promptTooLong(length: number): string | undefined {
	if (length <= MAX_PROMPT_CHARS) return undefined;
	return (
		`Prompt is ${length} characters long; at most ${MAX_PROMPT_CHARS} are ` +
		`accepted (the gateway gives no bound: this is what OpenAI-style image ` +
		`APIs take)`
	);
}

/**
 * Every number a user sets on the node or the trigger (a field, an option or an expression) is
 * read through params/inputs.ts against one row here: wrong type, empty, NaN, past a bound →
 * an error naming the field and the value, before anything is sent. Each bound says why.
 */
export interface NumberLimit {
	/** The field as the user sees it. */
	label: string;
	min: number;
	max: number;
	integer?: boolean;
	/** The unit, for the message: "minutes". */
	unit?: string;
	/** What 0 means where it is allowed below `min` ("the route's window"). */
	zeroMeans?: string;
	/** Why the bounds are where they are (for maintainers; not shown). */
	why: string;
}

export const NUMBER_LIMITS = {
	maxWaitMinutes: {
		label: 'Max Wait (Minutes)',
		min: 0.005,
		max: 1440,
		unit: 'minutes',
		why:
			'At least 0.3 s, time for one read of a task; a wait inside a node of ' +
			'more than a day is held by one execution that any restart loses (the ' +
			'trigger or the Wait-node loop serve longer jobs).',
	},
	taskMaxWaitMinutes: {
		label: 'Max Wait (Minutes)',
		min: 0.005,
		max: 1440,
		unit: 'minutes',
		zeroMeans: "each task's route window",
		why: 'As maxWaitMinutes; on Task → Wait for Completion 0 follows the route (docs/gateway-contract.md §8).',
	},
	giveUpMinutes: {
		label: 'Give Up After (Minutes)',
		min: 0.005,
		max: 10080,
		unit: 'minutes',
		zeroMeans: "the route's window",
		why:
			'Counted across rounds of the Wait-node loop, which parks between checks: ' +
			'a week covers any render the gateway keeps, and result URLs expire long ' +
			'before.',
	},
	pollIntervalSeconds: {
		label: 'Poll Interval (Seconds)',
		min: 0.05,
		max: 600,
		unit: 'seconds',
		zeroMeans: "the gateway's advised interval",
		why:
			'Below 0.05 s is a busy loop even on loopback; above 10 min a 30-minute ' +
			'video window sees its task three times, which the trigger does better.',
	},
	concurrency: {
		label: 'Concurrency',
		min: 1,
		max: 50,
		integer: true,
		why:
			'The field offers 1-50: more parallel submits to one gateway only meet ' +
			'its rate limits (docs/gateway-contract.md §10.5).',
	},
	submitTimeoutSeconds: {
		label: 'Submit Timeout (Seconds)',
		min: 0.1,
		max: 3600,
		unit: 'seconds',
		why: 'A submit that takes an hour to be accepted is lost; the field starts at 0.1 s.',
	},
	chatTimeoutSeconds: {
		label: 'Timeout (Seconds)',
		min: 1,
		max: 3600,
		unit: 'seconds',
		why: 'The field starts at 1 s; an hour without a byte is a dead connection.',
	},
	maxTokens: {
		label: 'Maximum Number of Tokens',
		min: 1,
		max: 2_000_000,
		integer: true,
		why: 'max_tokens is a count of tokens; no model has a window near 2 million tokens of output.',
	},
	temperature: {
		label: 'Temperature',
		min: 0,
		max: 2,
		why: "OpenAI-style chat APIs take 0-2 (the field's own range).",
	},
	topP: { label: 'Top P', min: 0, max: 1, why: "A probability mass: 0-1 (the field's own range)." },
	frequencyPenalty: {
		label: 'Frequency Penalty',
		min: -2,
		max: 2,
		why: "OpenAI-style chat APIs take -2 to 2 (the field's own range); the relay passes it on.",
	},
	presencePenalty: {
		label: 'Presence Penalty',
		min: -2,
		max: 2,
		why: "OpenAI-style chat APIs take -2 to 2 (the field's own range); the relay passes it on.",
	},
	usdPerSecond: {
		label: 'Video Prices per Second (USD)',
		min: 0,
		max: 100,
		unit: 'USD',
		why:
			'List prices of video models are cents to a few dollars per second; 100 ' +
			'USD per second is a typo (cents for dollars).',
	},
	maxRunCostUsd: {
		label: 'Max Estimated Cost per Run (USD)',
		min: 0,
		max: 1_000_000,
		unit: 'USD',
		why: 'A cap is an amount of money; a million USD per run is no cap but a typo.',
	},
	balanceUnitsPerUsd: {
		label: 'Balance Units per USD',
		min: 0.000001,
		max: 1_000_000_000,
		why:
			'The relay counts 500,000 quota units per USD; a billion per USD is ' +
			'beyond any unit it uses. Must be above 0 (a divisor).',
	},
	triggerTimeoutMinutes: {
		label: 'Timeout (Minutes)',
		min: 0.01,
		max: 10_080,
		unit: 'minutes',
		why: 'The field starts at 0.01; a week is longer than any gateway keeps a task (docs/gateway-contract.md §8).',
	},
	maxFileSizeMb: {
		label: 'Options → Max File Size (MB)',
		min: 0.001,
		max: 20_480,
		unit: 'MB',
		zeroMeans: 'the default of the file kind',
		why:
			"A limit is what keeps a lying file host from filling n8n's memory or " +
			'disk; 20 GB is past any video a model renders, so more is a typo, not a ' +
			'need.',
	},
	downloadTimeoutSeconds: {
		label: 'Options → Download Timeout (Seconds)',
		min: 1,
		max: 86_400,
		unit: 'seconds',
		zeroMeans: 'Max Wait, or the own bound of the file kind',
		why: 'Below a second no file arrives; above a day a result URL has expired (docs/gateway-contract.md §8).',
	},
	continueAtSeconds: {
		label: 'Options → Continue At (Seconds)',
		min: 0,
		max: 480,
		unit: 'seconds',
		why: "Where in the clip the new song goes on: Suno's longest song (v4.5+, v5) is 8 minutes.",
	},
	balanceThreshold: {
		label: 'Threshold',
		min: -1e12,
		max: 1e12,
		why: 'Any amount the gateway could report; a balance past a trillion in any unit is not one.',
	},
} satisfies Record<string, NumberLimit>;

export type NumberField = keyof typeof NUMBER_LIMITS;

/**
 * What no input can remove from a poll loop (engine/waiting/waiter.ts): a pause between two reads of one
 * task and a deadline. They apply even when a setting arrives unchecked (a caller that skips the
 * reader, a NaN from arithmetic): the loop then uses the route's own values.
 */
export const POLL_FLOOR_MS = 50;
export const WAIT_CEILING_MS = NUMBER_LIMITS.maxWaitMinutes.max * 60_000;

/**
 * A task id is one path segment of a query URL (docs/gateway-contract.md §2.3). The relay's ids
 * are short tokens (task_…, video_…, UUIDs); 255 characters is room for any of them, and what a
 * receipt in n8n's custom data can hold (255 per value).
 */
export const MAX_TASK_ID_CHARS = 255;
