'use strict';
// Shared set-up for the suites: one simulator per file, credentials pointing at it.
const { startSimulator } = require('./simulator');

const API_KEY = 'sk-sim-good';

/** `scenario`: the default task lifecycle after every reset (e.g. short durations). */
function useSimulator({ scenario, ...options } = {}) {
	const ctx = {};
	/** Clears requests, faults and tasks; tests call it again between two runs of one test. */
	ctx.fresh = () => {
		ctx.sim.reset();
		if (scenario) ctx.sim.scenario('*', scenario);
	};
	beforeAll(async () => {
		ctx.sim = await startSimulator({ apiKey: API_KEY, ...options });
		ctx.creds = { baseUrl: `${ctx.sim.mainUrl}/v1`, altBaseUrl: ctx.sim.altUrl, apiKey: API_KEY };
	});
	beforeEach(() => ctx.fresh());
	afterAll(async () => ctx.sim && (await ctx.sim.close()));
	return ctx;
}

/** Creates a task directly on the simulator, as another workflow or system would have. */
async function createTask(sim, { model = 'gpt-image-2-async', prompt = 'a cat', path = '/v1/images/generations', origin = 'main', extra = {} } = {}) {
	const base = origin === 'alt' ? sim.altUrl : sim.mainUrl;
	const response = await fetch(`${base}${path}`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ model, prompt, ...extra }),
	});
	const body = await response.json();
	if (!response.ok) throw new Error(`simulator refused the task: ${JSON.stringify(body)}`);
	return body.id ?? body.task_id ?? body.data?.task_id;
}

/** Everything a user could see of a run, as one text, to search for secrets. */
function visibleText(result) {
	const error = result.error ? { message: result.error.message, description: result.error.description, context: result.error.context } : {};
	return JSON.stringify({ items: result.items.map((i) => i.json), error });
}

/**
 * Task → Wait for Completion parameters, the task id taken from each item: a test's own defaults
 * (queryRoute, waiting) under what each call passes; `waiting` entries merge, 0.1 s interval unless set.
 */
function taskWaitParameters(defaults = {}) {
	return (extra = {}) => ({
		resource: 'task',
		operation: 'waitForCompletion',
		taskId: '={{ $json.taskId }}',
		queryRoute: defaults.queryRoute ?? 'image',
		...extra,
		waiting: { pollIntervalSeconds: 0.1, ...defaults.waiting, ...extra?.waiting },
	});
}

module.exports = { API_KEY, useSimulator, createTask, visibleText, taskWaitParameters };
