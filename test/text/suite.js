'use strict';
// Shared set-up for the Text suites (test/text/*.test.js): one simulator per file, the node's
// parameters, a chat run that checks the key stays hidden, and the simulator's answers.
const { API_KEY, useSimulator } = require('../support');
const { runNode } = require('../harness');

const MODEL = 'gpt-5.6-sol';

function params(overrides = {}) {
	return {
		resource: 'text',
		operation: 'message',
		modelId: { __rl: true, mode: 'id', value: MODEL },
		messages: { values: [{ role: 'user', content: 'hello world' }] },
		simplifyOutput: true,
		options: {},
		...overrides,
	};
}

/** Everything a user can see of a run must be free of the API key. */
function expectNoKey(result) {
	const error = result.error
		? { message: result.error.message, description: result.error.description, context: result.error.context }
		: {};
	const text = JSON.stringify({ items: result.items.map((i) => i.json), error });
	expect(text).not.toContain(API_KEY);
}

// The simulator's answer for a user text, split into the five stream pieces it sends.
const answerOf = (text) => `Echo: ${text}`;
const firstPiece = (content) => Array.from(content).slice(0, Math.ceil(Array.from(content).length / 5)).join('');

/** An item's json without the run's cost fields (test/text/spend.test.js holds those): the answer alone. */
const answerFields = ({ estimatedCost, spendSummary, ...rest }) => rest;

/** Call at the top of a test file: starts its simulator and returns the helpers bound to it. */
function useTextSuite() {
	const ctx = useSimulator();

	async function chat(overrides = {}, run = {}) {
		const result = await runNode({ parameters: params(overrides), credentials: ctx.creds, ...run });
		expectNoKey(result);
		return result;
	}

	return { ctx, chat };
}

module.exports = { MODEL, params, expectNoKey, answerOf, answerFields, firstPiece, useTextSuite };
