'use strict';
// npm run bench: the task engine against the simulator, measured in one run.
//  1. 50 async image tasks of T = 2 s, submitted and waited by one node run (our engine);
//  2. the same 50 handled one item after another (submit, poll until done, next), the way
//     n8n's own AI nodes do it;
//  3. peak RSS growth while a 200 MB video result streams into filesystem binary data;
//  4. 500 submits behind a 20 requests/s rate limit (token bucket, 429 + Retry-After): failed
//     items, duplicate submits, and submit throughput as a share of the limit.
require('../test/harness/env');
const { startSimulator } = require('../test/simulator');
const { runNode } = require('../test/harness');

const TASKS = Number(process.env.BENCH_TASKS ?? 50);
const TASK_MS = 2000;
const INTERVAL_S = 3; // the image route's advised interval (docs/gateway-contract.md §8: 3-5 s)
const VIDEO_BYTES = 200 * 1024 * 1024;
const API_KEY = 'sk-bench';
const LIMITED_ITEMS = Number(process.env.BENCH_LIMITED_ITEMS ?? 500);
const LIMIT_PER_S = 20;

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

async function main() {
	const sim = await startSimulator({ apiKey: API_KEY });
	const creds = { baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey: API_KEY };
	try {
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
		];
		const width = rows.map((r) => r.map((c) => c.length)).reduce((a, b) => a.map((w, i) => Math.max(w, b[i])));
		for (const row of rows) console.log(row.map((c, i) => c.padEnd(width[i])).join('  '));
		console.log(
			`bench batch_speedup=${fmt(sequential.wall / engine.wall, 1)} ideal_ratio=${fmt(engine.wall / ideal)} polls_per_task=${fmt(engine.polls / TASKS)} rss_growth_mb=${fmt(download.growthMb, 1)} ratelimit_failed=${limited.failed} ratelimit_duplicates=${limited.duplicates} ratelimit_throughput_ratio=${fmt(limited.ratio)}`,
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
