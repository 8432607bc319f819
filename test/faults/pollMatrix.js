'use strict';
// The poll half of the fault matrix: how each query route's task is created, the faults a poll
// can meet, and what a row checks. Faults are plain simulator injections (test/simulator README).
const { Container } = require('@n8n/di');
const { Logger } = require('@n8n/backend-common');
const { createTask, API_KEY } = require('../support');

/** One task per query route, created directly on the simulator (as an earlier run would have). */
const ROUTES = {
	generic: { origin: 'main', path: (id) => `/v1/tasks/${id}`, create: (sim) => createTask(sim, { model: 'gpt-image-2-async' }) },
	image: { origin: 'main', path: (id) => `/v1/images/generations/${id}`, create: (sim) => createTask(sim, { model: 'nano-banana' }) },
	video: {
		origin: 'main',
		path: (id) => `/v1/videos/${id}`,
		create: (sim) => createTask(sim, { model: 'sora-2', path: '/v1/videos', extra: { seconds: '8' } }),
	},
	alt: { origin: 'alt', path: (id) => `/v1/tasks/${id}`, create: (sim) => createTask(sim, { model: 'gemini-2.5-flash-image', origin: 'alt' }) },
	// The relay's Suno routes (docs/gateway-contract.md §10.15): its answers are TaskDtos in {code, data}.
	suno: {
		origin: 'main',
		path: (id) => `/suno/fetch/${id}`,
		create: (sim) => createSunoTask(sim),
		statusAnswer: (id, status) => ({ code: 'success', message: '', data: { task_id: id, action: 'MUSIC', status, progress: '40%', data: null } }),
	},
};

/** A Suno music task submitted to the simulator: its id is the answer's `data`. */
async function createSunoTask(sim) {
	const response = await fetch(`${sim.mainUrl}/suno/submit/music`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ gpt_description_prompt: 'a calm piano piece', mv: 'chirp-v4' }),
	});
	const body = await response.json();
	if (!response.ok || body.code !== 'success') throw new Error(`simulator refused the music task: ${JSON.stringify(body)}`);
	return body.data;
}

/** A 200 answer that reads as the task in `status` on the route (each route its own shape). */
const statusAnswer = (route, id, status) => (ROUTES[route].statusAnswer ? ROUTES[route].statusAnswer(id, status) : { task_id: id, status });

const HTML = '<!DOCTYPE html><html><body><h1>Down for maintenance</h1></body></html>';

/** Answers that give no reading of the task: once is a hiccup, three in a row are reported. */
const DOUBTFUL = {
	'200 with an HTML maintenance page': { status: 200, body: HTML },
	'200 with a truncated JSON body': { status: 200, body: '{"task_id":"t","status":"in_prog', headers: { 'Content-Type': 'application/json' } },
	'404': { status: 404 },
	'400 task_not_exist': { status: 400, body: { code: 'task_not_exist', message: 'task_not_exist', data: null } },
	'401': { status: 401 },
	'403': { status: 403 },
};

/** Every text a user could see of a run, custom data included, to search for the key. */
function everythingVisible(result, logs = []) {
	const error = result.error ? { message: result.error.message, description: result.error.description, context: result.error.context } : {};
	const metadata = result.run?.data?.resultData?.metadata ?? {};
	return JSON.stringify({ items: result.items.map((i) => i.json), error, metadata, logs });
}

/** n8n's logger as the node's context gets it (Container.get(Logger)), replaced by one that keeps every line. */
function captureLogs() {
	const original = Container.get(Logger);
	const lines = [];
	const logger = { scoped: () => logger };
	for (const level of ['info', 'warn', 'error', 'debug']) logger[level] = (message, meta) => lines.push({ level, message, meta });
	Container.set(Logger, logger);
	return { lines, restore: () => Container.set(Logger, original) };
}

/** The ids the receipts left in the execution's custom data, per route. */
function idsInCustomData(result) {
	const metadata = result.run?.data?.resultData?.metadata ?? {};
	const ids = {};
	for (const [key, value] of Object.entries(metadata)) {
		const match = /^gateway_.+_(generic|image|video|alt|suno)(?:_\d+)?$/.exec(key);
		if (match) ids[match[1]] = [...(ids[match[1]] ?? []), ...value.split(' ')];
	}
	return ids;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = { ROUTES, statusAnswer, DOUBTFUL, HTML, API_KEY, everythingVisible, captureLogs, idsInCustomData, sleep };
