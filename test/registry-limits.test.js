'use strict';
// The bounds of every number a user sets (registry/limits.ts NUMBER_LIMITS) in the words a user
// reads when a value is past one (params/inputs.ts checkNumber names the field, the range, its unit
// and what 0 means), the prompt's length bound, and the ceiling and floor no input removes from a
// poll loop. params-inputs.test.js holds the checks' own edges on made-up rows; this file holds the
// rows the node ships.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const built = require('./fresh-modules').freshEachTest();
const limits = built(() => require('../dist/nodes/UnifiedAiGateway/registry/limits.js'));
const inputs = built(() => require('../dist/nodes/UnifiedAiGateway/params/inputs.js'));

const refusal = (field, value) => inputs.checkNumber(value, limits.NUMBER_LIMITS[field]).problem;

describe('NUMBER_LIMITS: what each field refuses, as the user reads it', () => {
	test.each([
		['maxWaitMinutes', 2881, 'Max Wait (Minutes): 2881 is out of range; it takes a number from 0.005 to 1440 minutes'],
		['taskMaxWaitMinutes', 2881, "Max Wait (Minutes): 2881 is out of range; it takes a number from 0.005 to 1440 minutes, or 0 for each task's route window"],
		['giveUpMinutes', 20161, "Give Up After (Minutes): 20161 is out of range; it takes a number from 0.005 to 10080 minutes, or 0 for the route's window"],
		['pollIntervalSeconds', 1201, "Poll Interval (Seconds): 1201 is out of range; it takes a number from 0.05 to 600 seconds, or 0 for the gateway's advised interval"],
		['concurrency', 51, 'Concurrency: 51 is out of range; it takes a whole number from 1 to 50'],
		['concurrency', 2.5, 'Concurrency: 2.5 is not a whole number; it takes a whole number from 1 to 50'],
		['submitTimeoutSeconds', 7201, 'Submit Timeout (Seconds): 7201 is out of range; it takes a number from 0.1 to 3600 seconds'],
		['chatTimeoutSeconds', 7201, 'Timeout (Seconds): 7201 is out of range; it takes a number from 1 to 3600 seconds'],
		['maxTokens', 4000001, 'Maximum Number of Tokens: 4000001 is out of range; it takes a whole number from 1 to 2000000'],
		['maxTokens', 100.5, 'Maximum Number of Tokens: 100.5 is not a whole number; it takes a whole number from 1 to 2000000'],
		['temperature', 5, 'Temperature: 5 is out of range; it takes a number from 0 to 2'],
		['topP', 3, 'Top P: 3 is out of range; it takes a number from 0 to 1'],
		['usdPerSecond', 201, 'Video Prices per Second (USD): 201 is out of range; it takes a number from 0 to 100 USD'],
		['maxRunCostUsd', 2000001, 'Max Estimated Cost per Run (USD): 2000001 is out of range; it takes a number from 0 to 1000000 USD'],
		['balanceUnitsPerUsd', 2000000001, 'Balance Units per USD: 2000000001 is out of range; it takes a number from 0.000001 to 1000000000'],
		['triggerTimeoutMinutes', 20161, 'Timeout (Minutes): 20161 is out of range; it takes a number from 0.01 to 10080 minutes'],
		['maxFileSizeMb', 40961, 'Options → Max File Size (MB): 40961 is out of range; it takes a number from 0.001 to 20480 MB, or 0 for the default of the file kind'],
		['downloadTimeoutSeconds', 172801, 'Options → Download Timeout (Seconds): 172801 is out of range; it takes a number from 1 to 86400 seconds, or 0 for Max Wait, or the own bound of the file kind'],
		['continueAtSeconds', 481, 'Options → Continue At (Seconds): 481 is out of range; it takes a number from 0 to 480 seconds'],
		['balanceThreshold', 2e12, 'Threshold: 2000000000000 is out of range; it takes a number from -1000000000000 to 1000000000000'],
	])('%s, %p: %p', (field, value, problem) => {
		expect(refusal(field, value)).toBe(problem);
	});

	test('every row is named above', () => {
		expect(Object.keys(limits.NUMBER_LIMITS).sort()).toEqual(
			['maxWaitMinutes', 'taskMaxWaitMinutes', 'giveUpMinutes', 'pollIntervalSeconds', 'concurrency', 'submitTimeoutSeconds', 'chatTimeoutSeconds', 'maxTokens', 'temperature', 'topP', 'frequencyPenalty', 'presencePenalty', 'usdPerSecond', 'maxRunCostUsd', 'balanceUnitsPerUsd', 'triggerTimeoutMinutes', 'maxFileSizeMb', 'downloadTimeoutSeconds', 'continueAtSeconds', 'balanceThreshold'].sort(),
		);
	});
});

describe('what no input removes from a poll loop (engine/waiting/waiter.ts)', () => {
	test('the deadline is Max Wait at its most, a day; the pause between two reads of a task at least 50 ms', () => {
		expect(limits.WAIT_CEILING_MS).toBe(24 * 60 * 60 * 1000);
		expect(limits.POLL_FLOOR_MS).toBe(50);
	});
});

describe('promptTooLong: the prompt bound', () => {
	test('32,000 characters are taken; one more is refused, naming the length and where the bound comes from', () => {
		expect(limits.promptTooLong(32000)).toBeUndefined();
		expect(limits.promptTooLong(0)).toBeUndefined();
		expect(limits.promptTooLong(32001)).toBe(
			'Prompt is 32001 characters long; at most 32000 are accepted (the gateway gives no bound: this is what OpenAI-style image APIs take)',
		);
	});
});
