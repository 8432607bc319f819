'use strict';
// npm run bench: the task engine against the simulator, measured in one run.
//  1. 50 async image tasks of T = 2 s, submitted and waited by one node run (our engine);
//  2. the same 50 handled one item after another (submit, poll until done, next), the way
//     n8n's own AI nodes do it;
//  3. peak RSS growth while a 200 MB video result streams into filesystem binary data;
//  4. 500 submits behind a 20 requests/s rate limit (token bucket, 429 + Retry-After): failed
//     items, duplicate submits, and submit throughput as a share of the limit;
//  5. how often the engine reads a task (engine/waiting/pollSchedule.ts), without estimated_time: 500 images
//     + 100 videos of 1.5-20 s (two node runs side by side, as bench:n8n runs them), against the
//     loop users build by hand (submit → Wait 5 s → read every open task → back to Wait), same
//     simulator, same tasks; then 100 videos of 60-120 s. Task times are real (no time scale): a
//     scaled clock would shrink the tasks but not the HTTP and the loop's own time, and flatter both.
//     Reads per task, gateway requests per task (submits + reads; downloads are off here) and wall
//     ÷ ideal, the ideal being the slowest task + one poll interval, as bench:n8n defines it.
//     BENCH_POLLS=0 skips 5; BENCH_LONG=0 skips the 60-120 s videos.

// dist/ first: a bench started with `node …` after a source edit measures the current code (test/build-current.js).
require('../test/build-current').ensureCurrent();
require('../test/harness/env');
const { startSimulator } = require('../test/simulator');
const { benchRefresh, describeRefresh } = require('./refresh');
const { runNode } = require('../test/harness');

const TASKS = Number(process.env.BENCH_TASKS ?? 50);
const TASK_MS = 2000;
const INTERVAL_S = 3; // the image route's advised interval (docs/gateway-contract.md §8: 3-5 s)
const VIDEO_BYTES = 200 * 1024 * 1024;
const API_KEY = 'sk-bench';
const LIMITED_ITEMS = Number(process.env.BENCH_LIMITED_ITEMS ?? 500);
const LIMIT_PER_S = 20;
const POLL_S = Number(process.env.BENCH_POLL_S ?? 3); // the engine's Poll Interval: the image route's advice (bench:n8n uses 5 s on both sides)
const LOOP_WAIT_S = 5; // the Wait node of the loop users build
const MIXED = { images: Number(process.env.BENCH_IMAGES ?? 500), videos: Number(process.env.BENCH_VIDEOS ?? 100), durationMs: [1500, 20000] };
const LONG = { videos: Number(process.env.BENCH_LONG_VIDEOS ?? 100), durationMs: [60000, 120000] };
// The query routes of both models (image task query; the video routes).
const QUERY = /^\/v1\/(?:images\/generations|tasks|videos|video\/generations)\/([^/]+)$/;
const SUBMIT = /^\/v1\/(?:images\/generations|videos|video\/generations)$/;

const generate = {
	resource: 'image',
	operation: 'generate',
	modelId: { __rl: true, mode: 'id', value: 'gpt-image-2-async' },
	prompt: '={{ $json.prompt }}',
	waitForCompletion: true,
	waiting: { pollIntervalSeconds: INTERVAL_S, maxWaitMinutes: 10 },
	options: { concurrency: 10 },
	download: false,
};

const items = (n) => Array.from({ length: n }, (_, i) => ({ json: { prompt: `product shot ${i}` } }));

async function ours(sim, creds) {
	sim.reset();
	sim.scenario('*', { durationMs: TASK_MS });
	const started = Date.now();
	const result = await runNode({ parameters: generate, credentials: creds, items: items(TASKS) });
	const wall = Date.now() - started;
	assertDone(result, TASKS, 'engine run');
	const polls = sim.count('GET', /^\/v1\/images\/generations\//);
	return { wall, polls, submits: sim.count('POST', '/v1/images/generations') };
}

async function oneAfterAnother(sim, creds) {
	sim.reset();
	sim.scenario('*', { durationMs: TASK_MS });
	const started = Date.now();
	for (const item of items(TASKS)) {
		const result = await runNode({ parameters: { ...generate, options: { concurrency: 1 } }, credentials: creds, items: [item] });
		assertDone(result, 1, 'sequential run');
	}
	return { wall: Date.now() - started };
}

async function bigDownload(sim, creds) {
	sim.reset();
	sim.scenario('*', { durationMs: 10, videoBytes: VIDEO_BYTES });
	const small = await submitVideo(sim);
	const big = await submitVideo(sim);
	await new Promise((resolve) => setTimeout(resolve, 100));
	const download = (taskId) => ({ resource: 'task', operation: 'downloadResult', taskId, queryRoute: 'video', options: { binaryPropertyOutput: 'data' } });
	// Warm-up: the first download loads code and buffers that are not the file.
	sim.scenario('*', { durationMs: 10, videoBytes: 8 * 1024 * 1024 });
	await runNode({ parameters: download(small), credentials: creds, binaryMode: 'filesystem' });
	global.gc?.();
	const before = process.memoryUsage().rss;
	let peak = before;
	const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
	const started = Date.now();
	const result = await runNode({ parameters: download(big), credentials: creds, binaryMode: 'filesystem' });
	clearInterval(sampler);
	peak = Math.max(peak, process.memoryUsage().rss);
	if (result.error) throw result.error;
	const stored = result.items[0].binary.data;
	return { growthMb: (peak - before) / 1024 / 1024, wall: Date.now() - started, size: stored.fileSize, id: stored.id };
}

async function rateLimited(sim, creds) {
	sim.reset();
	const limit = sim.rateLimit({ method: 'POST', path: '/v1/images/generations', perSecond: LIMIT_PER_S, retryAfter: 'seconds' });
	const started = Date.now();
	const result = await runNode({
		parameters: { ...generate, waitForCompletion: false },
		credentials: creds,
		items: items(LIMITED_ITEMS),
		continueOnFail: true,
	});
	const wall = (Date.now() - started) / 1000;
	const failed = result.items.filter((i) => i.json.error || !i.json.taskId).length;
	const tasks = new Set(result.items.map((i) => i.json.taskId).filter(Boolean));
	const prompts = sim.find('POST', '/v1/images/generations').map((r) => r.body?.prompt);
	return {
		failed,
		// Submits the gateway let through beyond one per item: each would be a second charge.
		duplicates: limit.passed - tasks.size,
		refused: limit.limited,
		posts: prompts.length,
		wall,
		ratio: LIMITED_ITEMS / wall / LIMIT_PER_S,
	};
}

const imageJob = (n) => ({
	parameters: { ...generate, waiting: { pollIntervalSeconds: POLL_S, maxWaitMinutes: 10, onTimeout: 'fail' } },
	items: items(n),
});
const videoJob = (n) => ({
	parameters: {
		resource: 'video',
		operation: 'generate',
		modelId: { __rl: true, mode: 'id', value: 'sora-2' },
		prompt: '={{ $json.prompt }}',
		videoSeconds_sora2: '8',
		videoSize_sora2: '720x1280',
		waitForCompletion: true,
		waiting: { pollIntervalSeconds: POLL_S, maxWaitMinutes: 10, onTimeout: 'fail' },
		download: false,
		options: { concurrency: 10 },
	},
	items: Array.from({ length: n }, (_, i) => ({ json: { prompt: `waves ${i}` } })),
});

/** What the gateway saw since the last reset: reads per task, requests per task, the slowest task. */
function gatewaySaw(sim) {
	const reads = new Map();
	let submits = 0;
	for (const r of sim.requests) {
		if (r.method === 'POST' && SUBMIT.test(r.path)) submits++;
		const m = r.method === 'GET' && r.origin === 'main' && QUERY.exec(r.path);
		if (m) reads.set(m[1], (reads.get(m[1]) ?? 0) + 1);
	}
	const tasks = [...reads.keys()].map((id) => sim.task(id)).filter(Boolean);
	const readCounts = [...reads.values()];
	const total = readCounts.reduce((a, b) => a + b, 0);
	return {
		tasks: tasks.length,
		readsPerTask: total / tasks.length,
		maxReads: Math.max(...readCounts),
		requestsPerTask: (total + submits) / tasks.length,
		// Behind the relay's rounds a task is done for its readers once its record says so.
		slowestMs: Math.max(...tasks.map((t) => (t.relay?.visibleAt ?? t.finishedAt) - t.createdAt)),
	};
}

/** The engine: each workload one node run, all started together (as two n8n executions would). */
async function engineWait(sim, creds, jobs) {
	const started = Date.now();
	const results = await Promise.all(jobs.map((job) => runNode({ ...job, credentials: creds, continueOnFail: true })));
	const wall = Date.now() - started;
	results.forEach((result, k) => assertDone(result, jobs[k].items.length, 'poll bench'));
	const saw = gatewaySaw(sim);
	return { ...saw, wall, ideal: saw.slowestMs + POLL_S * 1000 };
}

/**
 * The loop users wire by hand with n8n's own nodes: HTTP Request submits every item, Wait 5 s, HTTP
 * Request reads every open task, If done → out, else back to Wait. One batch moves through the loop
 * together; the answers are read by the engine's own reading rule (api/tasks/snapshot.ts).
 */
async function handBuiltLoop(sim, { images, videos }) {
	const { snapshotOf } = require('../dist/nodes/UnifiedAiGateway/api/tasks/snapshot');
	const headers = { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' };
	const started = Date.now();
	const submits = [
		...Array.from({ length: images }, (_, i) => ({ path: '/v1/images/generations', query: '/v1/images/generations/', body: { model: 'gpt-image-2-async', prompt: `loop shot ${i}` } })),
		...Array.from({ length: videos }, (_, i) => ({ path: '/v1/videos', query: '/v1/videos/', body: { model: 'sora-2', prompt: `loop waves ${i}`, seconds: '8', size: '720x1280' } })),
	];
	let open = await inBatches(submits, async (s) => {
		const response = await fetch(`${sim.mainUrl}${s.path}`, { method: 'POST', headers, body: JSON.stringify(s.body) });
		const body = await response.json();
		if (!response.ok) throw new Error(`loop submit refused: ${JSON.stringify(body)}`);
		return { id: body.id ?? body.task_id ?? body.data?.task_id ?? body.data?.id, query: s.query };
	});
	while (open.length > 0) {
		await new Promise((resolve) => setTimeout(resolve, LOOP_WAIT_S * 1000));
		const states = await inBatches(open, async (task) => {
			const response = await fetch(`${sim.mainUrl}${task.query}${task.id}`, { headers });
			// The video route serves a finished file at /content when its answer names no URL (docs/gateway-contract.md §4.9).
			const contentUrl = task.query === '/v1/videos/' ? `${sim.mainUrl}/v1/videos/${task.id}/content` : undefined;
			return snapshotOf(await response.json(), task.id, { contentUrl }).state;
		});
		if (states.includes('failed')) throw new Error('loop: a task failed');
		open = open.filter((_, k) => states[k] === 'pending');
	}
	const wall = Date.now() - started;
	const saw = gatewaySaw(sim);
	return { ...saw, wall, ideal: saw.slowestMs + LOOP_WAIT_S * 1000 };
}

/** n8n's HTTP Request node sends an item list's requests together; 10 at a time keeps the simulator honest. */
async function inBatches(list, fn, size = 10) {
	const out = [];
	for (let i = 0; i < list.length; i += size) out.push(...(await Promise.all(list.slice(i, i + size).map(fn))));
	return out;
}

async function pollWorkloads(sim, creds) {
	const scenario = (durationMs) => {
		sim.reset();
		for (const model of ['gpt-image-2-async', 'sora-2']) sim.scenario(model, { durationMs, estimatedTime: 'none' });
	};
	scenario(MIXED.durationMs);
	const mixed = await engineWait(sim, creds, [imageJob(MIXED.images), videoJob(MIXED.videos)]);
	scenario(MIXED.durationMs);
	const loop = await handBuiltLoop(sim, MIXED);
	let long;
	if (process.env.BENCH_LONG !== '0' && LONG.videos > 0) {
		scenario(LONG.durationMs);
		long = await engineWait(sim, creds, [videoJob(LONG.videos)]);
	}
	return { mixed, loop, long };
}

async function submitVideo(sim) {
	const response = await fetch(`${sim.mainUrl}/v1/videos`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ model: 'sora-2', prompt: 'waves', seconds: '8', size: '1280x720' }),
	});
	const body = await response.json();
	if (!response.ok) throw new Error(`video submit refused: ${JSON.stringify(body)}`);
	return body.id;
}

function assertDone(result, expected, label) {
	if (result.error) throw new Error(`${label} failed: ${result.error.message}`);
	const done = result.items.filter((i) => i.json.url && !i.json.pending).length;
	if (done !== expected) throw new Error(`${label}: ${done} of ${expected} items finished`);
}

const fmt = (n, d = 2) => Number(n).toFixed(d);

function printPolls({ mixed, loop, long }) {
	const line = (label, r, interval) =>
		console.log(
			`  ${label} ${r.tasks} tasks, slowest ${fmt(r.slowestMs / 1000, 1)} s, interval ${interval} s: wall ${fmt(r.wall / 1000, 1)} s = ${fmt(r.wall / r.ideal)} × ideal, ${fmt(r.readsPerTask)} reads per task (at most ${r.maxReads}), ${fmt(r.requestsPerTask)} requests per task`,
		);
	line('engine, 1.5-20 s:  ', mixed, POLL_S);
	line('hand-built loop:   ', loop, LOOP_WAIT_S);
	if (long) line('engine, 60-120 s:  ', long, POLL_S);
}

function pollRows({ mixed, loop, long }) {
	return [
		['mixed_wall_over_ideal (500 + 100 items, 1.5-20 s)', fmt(mixed.wall / mixed.ideal), '<= 1.05'],
		['mixed_reads_per_task', fmt(mixed.readsPerTask), `<= loop's (${fmt(loop.readsPerTask)})`],
		['mixed_requests_per_task', fmt(mixed.requestsPerTask), `<= loop's (${fmt(loop.requestsPerTask)})`],
		...(long
			? [
					['long_wall_over_ideal (100 videos, 60-120 s)', fmt(long.wall / long.ideal), '<= 1.10'],
					['long_reads_per_task', fmt(long.readsPerTask), '<= 6'],
				]
			: []),
	];
}

function pollKeys({ mixed, loop, long }) {
	const keys = [
		`mixed_wall_over_ideal=${fmt(mixed.wall / mixed.ideal)}`,
		`mixed_reads_per_task=${fmt(mixed.readsPerTask)}`,
		`mixed_requests_per_task=${fmt(mixed.requestsPerTask)}`,
		`loop_wall_over_ideal=${fmt(loop.wall / loop.ideal)}`,
		`loop_reads_per_task=${fmt(loop.readsPerTask)}`,
		`loop_requests_per_task=${fmt(loop.requestsPerTask)}`,
	];
	if (long) keys.push(`long_wall_over_ideal=${fmt(long.wall / long.ideal)}`, `long_reads_per_task=${fmt(long.readsPerTask)}`, `long_max_reads=${long.maxReads}`);
	return keys.join(' ');
}

/** BENCH_ONLY=polls: only part 5, for tuning the schedule. */
async function pollsOnly(sim, creds) {
	const polls = await pollWorkloads(sim, creds);
	printPolls(polls);
	console.log(`bench ${pollKeys(polls)}`);
}

async function main() {
	const refresh = benchRefresh(process.argv.slice(2));
	console.log(`bench: ${describeRefresh(refresh)}`);
	const sim = await startSimulator({ apiKey: API_KEY, refresh });
	const creds = { baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey: API_KEY };
	try {
		if (process.env.BENCH_ONLY === 'polls') return await pollsOnly(sim, creds);
		console.log(`bench: ${TASKS} async image tasks of ${TASK_MS / 1000} s, poll interval ${INTERVAL_S} s`);
		const engine = await ours(sim, creds);
		console.log(`  engine:            ${fmt(engine.wall / 1000)} s (${engine.submits} submits, ${engine.polls} polls)`);
		const sequential = await oneAfterAnother(sim, creds);
		console.log(`  one after another: ${fmt(sequential.wall / 1000)} s`);
		const download = await bigDownload(sim, creds);
		console.log(`  200 MB download:   ${fmt(download.wall / 1000)} s, ${download.size} stored on disk`);
		const limited = await rateLimited(sim, creds);
		console.log(
			`  rate limit:        ${LIMITED_ITEMS} items behind ${LIMIT_PER_S}/s in ${fmt(limited.wall)} s (${limited.posts} POSTs, ${limited.refused} answered 429, ${limited.failed} failed, ${limited.duplicates} duplicates)`,
		);

		const polls = process.env.BENCH_POLLS === '0' ? undefined : await pollWorkloads(sim, creds);
		if (polls) printPolls(polls);

		const ideal = TASK_MS + INTERVAL_S * 1000;
		const rows = [
			['metric', 'value', 'target'],
			['ideal_ratio (engine / (T + interval))', fmt(engine.wall / ideal), '<= 1.15'],
			['batch_speedup (one-after-another / engine)', fmt(sequential.wall / engine.wall, 1), '>= 20'],
			['polls_per_task', fmt(engine.polls / TASKS), `<= ${Math.ceil(TASK_MS / (INTERVAL_S * 1000)) + 1}`],
			['rss_growth_mb (200 MB, filesystem mode)', fmt(download.growthMb, 1), '<= 64'],
			[`ratelimit_failed (${LIMITED_ITEMS} items, ${LIMIT_PER_S}/s)`, String(limited.failed), '0'],
			['ratelimit_duplicates', String(limited.duplicates), '0'],
			['ratelimit_throughput_ratio (submits/s ÷ limit)', fmt(limited.ratio), '>= 0.80'],
			...(polls ? pollRows(polls) : []),
		];
		const width = rows.map((r) => r.map((c) => c.length)).reduce((a, b) => a.map((w, i) => Math.max(w, b[i])));
		for (const row of rows) console.log(row.map((c, i) => c.padEnd(width[i])).join('  '));
		console.log(
			`bench batch_speedup=${fmt(sequential.wall / engine.wall, 1)} ideal_ratio=${fmt(engine.wall / ideal)} polls_per_task=${fmt(engine.polls / TASKS)} rss_growth_mb=${fmt(download.growthMb, 1)} ratelimit_failed=${limited.failed} ratelimit_duplicates=${limited.duplicates} ratelimit_throughput_ratio=${fmt(limited.ratio)}${polls ? ` ${pollKeys(polls)}` : ''}`,
		);
	} finally {
		await sim.close();
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(`bench failed: ${error.stack ?? error}`);
		process.exit(1);
	},
);
