'use strict';
// npm run bench:alloc [-- --line 2]: what the package's own run of bench:n8n's default scenario
// allocates and costs this process per item, without n8n's server: 500 images (gpt-image-2-async)
// and 100 videos (sora-2) in two node runs side by side, each through n8n's execution code
// (test/harness: WorkflowExecute, n8n's request helpers, its binary store on disk), Wait for
// Result and Download on, Poll Interval 5 s, Concurrency 5, tasks of 1.5-20 s without an estimate.
// The simulator runs in a child process (./simulator.js), so every byte and millisecond counted is
// the node's and n8n's. Under a heap cap V8's full collections follow the bytes a run allocates
// (docs/PERFORMANCE.md, "Main's CPU against the loop's"), and those do not depend on the machine's
// load, so this figure can be judged on a busy machine where bench:n8n cannot.
//
// Two measured runs after a warm-up: one for the CPU (nothing attached), one under V8's sampling
// heap profiler (objects the collector already took included), split where the last submit was
// answered: the submits (reading and checking the items, the spend guard, the POSTs, the receipts;
// the first task reads overlap them) and the wait (task reads, downloads, the output). The
// allocations are named by the function that made them; `ours` is the package's code (dist/nodes)
// alone, n8n's helpers called from it are n8n's.
// The CPU run also counts V8's collections (full and minor). BENCH_ALLOC_HELD_MB=206 with
// NODE_OPTIONS=--max-old-space-size=320 first fills the heap with that much live data, as n8n's
// own after start-up in bench:n8n, so the count says how many full collections the run's own work
// causes under that cap.
//   BENCH_IMAGES=500 BENCH_VIDEOS=100 BENCH_INTERVAL_S=5 BENCH_SAMPLING_BYTES=16384
//   BENCH_ALLOC_PROFILE=<folder>: writes the heap profile and a CPU profile (of the CPU run) there.
// The last line: bench-alloc items=… alloc_kb_per_item=… submit_alloc_kb_per_item=… …
const path = require('node:path');

const LINE = process.argv.includes('--line') ? process.argv[process.argv.indexOf('--line') + 1] : '1';
if (LINE === '2') {
	// n8n's packages from the 2.x line (as test/lines/jest.n8n-2.config.js maps them for jest).
	const Module = require('node:module');
	const dir = path.resolve(__dirname, '../../test/lines/n8n-2/node_modules');
	const names = /^(n8n-workflow|n8n-core|@n8n\/di|@n8n\/backend-common)(\/.*)?$/;
	const resolve = Module._resolveFilename;
	Module._resolveFilename = function (request, parent, ...rest) {
		const m = names.exec(request);
		return resolve.call(this, m ? path.join(dir, m[1], m[2] ?? '') : request, parent, ...rest);
	};
} else if (LINE !== '1') throw new Error(`--line takes 1 or 2, not ${LINE}`);

require('../../test/build-current').ensureCurrent();
require('../../test/harness/env');
const fs = require('node:fs');
const { forkSimulator } = require('../child');
const { PerformanceObserver, constants } = require('node:perf_hooks');
const { Session } = require('node:inspector/promises');
const { runNode } = require('../../test/harness');
const { SORA_2 } = require('../n8n/workflows');

const IMAGES = Number(process.env.BENCH_IMAGES ?? 500);
const VIDEOS = Number(process.env.BENCH_VIDEOS ?? 100);
const INTERVAL_S = Number(process.env.BENCH_INTERVAL_S ?? 5);
const SAMPLING = Number(process.env.BENCH_SAMPLING_BYTES ?? 16384);
const PROFILE_DIR = process.env.BENCH_ALLOC_PROFILE;
const HELD_MB = Number(process.env.BENCH_ALLOC_HELD_MB ?? 0);
const DURATION_MS = [1500, 20000];
const API_KEY = 'sk-bench';
const DIST = path.resolve(__dirname, '../../dist');

const { child, ask } = forkSimulator(path.join(__dirname, 'simulator.js'));
const cpuMs = (start) => {
	const used = process.cpuUsage(start);
	return (used.user + used.system) / 1000;
};

/** bench/n8n/workflows.js's two gateway nodes, as parameters of one node run each. */
function parameters() {
	const common = {
		prompt: '={{ $json.prompt }}',
		waitForCompletion: true,
		waiting: { pollIntervalSeconds: INTERVAL_S, maxWaitMinutes: 10, onTimeout: 'fail' },
		options: { concurrency: 5 },
		download: true,
	};
	return {
		image: { resource: 'image', operation: 'generate', modelId: { __rl: true, mode: 'id', value: 'gpt-image-2-async' }, ...common },
		video: { ...SORA_2, ...common },
	};
}

/** The two node runs side by side (two executions, as bench:n8n posts them); `atSubmits` when every submit has answered. */
async function scenario(creds, run, images, videos, atSubmits) {
	await ask('reset', { durationMs: DURATION_MS });
	const params = parameters();
	const items = (kind, n) => Array.from({ length: n }, (_, i) => ({ json: { prompt: `${run} ${kind} ${i}` } }));
	const one = (kind, n) =>
		n === 0
			? { items: [] }
			: runNode({ parameters: params[kind], credentials: creds, items: items(kind, n), onError: 'continueRegularOutput', binaryMode: 'filesystem', executionId: `${run}-${kind}` });
	const submitsDone = ask('submits', { n: images + videos }).then(atSubmits);
	const results = await Promise.all([one('image', images), one('video', videos)]);
	await submitsDone;
	const out = results.flatMap((r) => r.items);
	const files = out.filter((item) => item.binary?.data?.id).length;
	if (out.length !== images + videos || files !== images + videos)
		throw new Error(`${run}: ${out.length} items, ${files} files of ${images + videos}: ${out.find((i) => i.json.error)?.json.error ?? results.find((r) => r.error)?.error?.message}`);
	return (await ask('count')).requests;
}

const KINDS = [
	['ours', (url) => url.startsWith(`file://${DIST}/nodes/`) || url.startsWith(`${DIST}/nodes/`)],
	['n8n', (url) => /node_modules\/(n8n-core|n8n-workflow|@n8n)\//.test(url)],
	['axios', (url) => url.includes('node_modules/axios/')],
	['other modules', (url) => url.includes('node_modules/')],
	['test harness', (url) => url.includes('/test/')],
	['node', (url) => url.startsWith('node:')],
	['V8 (native)', () => true],
];
const kindOf = (url) => KINDS.find(([, test]) => test(url))[0];
const where = (frame) => `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(dist|node_modules)\//, '').replace(/^file:\/\//, '')}:${frame.lineNumber + 1}`;

/** The heap profile's samples (by `ordinal`) before and after `boundary`, by kind and by function. */
function attribute(profile, boundary) {
	const nodes = new Map();
	const visit = (node) => {
		nodes.set(node.id, node.callFrame);
		for (const c of node.children) visit(c);
	};
	visit(profile.head);
	const phases = { submit: 0, wait: 0 };
	const byKind = new Map();
	const byFunction = new Map();
	for (const { size, nodeId, ordinal } of profile.samples) {
		const frame = nodes.get(nodeId);
		phases[ordinal <= boundary ? 'submit' : 'wait'] += size;
		const kind = kindOf(frame.url);
		byKind.set(kind, (byKind.get(kind) ?? 0) + size);
		const key = `${kind}: ${where(frame)}`;
		byFunction.set(key, (byFunction.get(key) ?? 0) + size);
	}
	return { phases, byKind, byFunction };
}

/** Live objects, small and many as an application's are, until the heap holds `mb`. */
function hold(mb) {
	const held = [];
	while (process.memoryUsage().heapUsed < mb * 1024 * 1024) {
		const chunk = [];
		for (let i = 0; i < 10_000; i++) chunk.push({ id: i, name: `held ${held.length} ${i}`, tags: [i, i + 1], meta: { at: i } });
		held.push(chunk);
	}
	return held;
}

/** V8's collections from now on: full (mark-compact) and minor, with their time. */
function countCollections() {
	const seen = { full: 0, fullMs: 0, minor: 0, minorMs: 0 };
	const observer = new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) {
			const kind = entry.detail?.kind;
			if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
				seen.full++;
				seen.fullMs += entry.duration;
			} else if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
				seen.minor++;
				seen.minorMs += entry.duration;
			}
		}
	});
	observer.observe({ entryTypes: ['gc'] });
	return { seen, stop: () => observer.disconnect() };
}

async function main() {
	const held = HELD_MB > 0 ? hold(HELD_MB) : [];
	const { mainUrl, altUrl } = await ask('start', { apiKey: API_KEY });
	const creds = { baseUrl: `${mainUrl}/v1`, altBaseUrl: altUrl, apiKey: API_KEY };
	const n = IMAGES + VIDEOS;
	// Warm-up: the code loaded and optimised, n8n's binary store set up.
	await scenario(creds, 'warmup', Math.min(IMAGES, 20), Math.min(VIDEOS, 5), () => undefined);

	const session = new Session();
	session.connect();
	// The CPU run: nothing attached but (with BENCH_ALLOC_PROFILE) the CPU profiler.
	if (PROFILE_DIR) {
		await session.post('Profiler.enable');
		await session.post('Profiler.start');
	}
	let cpuAtSubmits;
	const collections = countCollections();
	const started = process.cpuUsage();
	const startedAt = Date.now();
	let submitsAt;
	const requests = await scenario(creds, 'cpu', IMAGES, VIDEOS, () => {
		cpuAtSubmits = cpuMs(started);
		submitsAt = Date.now() - startedAt;
	});
	const cpu = cpuMs(started);
	const wallMs = Date.now() - startedAt;
	// The entries of the run's last collections come a tick later.
	await new Promise((resolve) => setImmediate(resolve));
	collections.stop();
	const gc = collections.seen;
	if (PROFILE_DIR) {
		const { profile } = await session.post('Profiler.stop');
		fs.mkdirSync(PROFILE_DIR, { recursive: true });
		fs.writeFileSync(path.join(PROFILE_DIR, 'bench-alloc.cpuprofile'), JSON.stringify(profile));
	}

	// The allocation run.
	await session.post('HeapProfiler.enable');
	await session.post('HeapProfiler.startSampling', { samplingInterval: SAMPLING, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
	let boundary = 0;
	await scenario(creds, 'alloc', IMAGES, VIDEOS, async () => {
		const { profile } = await session.post('HeapProfiler.getSamplingProfile');
		for (const s of profile.samples) if (s.ordinal > boundary) boundary = s.ordinal;
	});
	const { profile } = await session.post('HeapProfiler.stopSampling');
	session.disconnect();
	if (PROFILE_DIR) fs.writeFileSync(path.join(PROFILE_DIR, 'bench-alloc.heapprofile'), JSON.stringify(profile));
	await ask('close');

	const { phases, byKind, byFunction } = attribute(profile, boundary);
	const total = phases.submit + phases.wait;
	const kb = (bytes) => (bytes / 1024 / n).toFixed(1);
	const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1).padStart(7);
	console.log(`bench-alloc: n8n ${require('n8n-core/package.json').version} (line ${LINE}), ${IMAGES} images + ${VIDEOS} videos, poll interval ${INTERVAL_S} s, tasks 1.5-20 s`);
	console.log(`  CPU run: wall ${(wallMs / 1000).toFixed(1)} s, every submit answered at ${(submitsAt / 1000).toFixed(1)} s; CPU ${(cpu / 1000).toFixed(1)} s (${(cpuAtSubmits / 1000).toFixed(1)} s by then); ${requests} gateway requests`);
	const cap = require('node:v8').getHeapStatistics().heap_size_limit / 1024 / 1024;
	console.log(`  V8 in the CPU run: ${gc.full} full collections (${gc.fullMs.toFixed(0)} ms), ${gc.minor} minor (${gc.minorMs.toFixed(0)} ms); heap limit ${cap.toFixed(0)} MB, ${HELD_MB} MB held live beside the run (BENCH_ALLOC_HELD_MB)`);
	console.log(`  allocated ${mb(total).trim()} MB: submits ${mb(phases.submit).trim()} MB, wait ${mb(phases.wait).trim()} MB; by whose code:`);
	for (const [kind, bytes] of [...byKind].sort((a, b) => b[1] - a[1])) console.log(`  ${mb(bytes)} MB  ${kind}`);
	console.log('  the top allocating functions (MB):');
	for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${mb(bytes)}  ${name}`);
	console.log('  the package\'s own (MB):');
	for (const [name, bytes] of [...byFunction].filter(([name]) => name.startsWith('ours:')).sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${mb(bytes)}  ${name.slice(6)}`);
	console.log(
		[
			'bench-alloc',
			`line=${LINE}`,
			`items=${n}`,
			`alloc_kb_per_item=${kb(total)}`,
			`submit_alloc_kb_per_item=${kb(phases.submit)}`,
			`wait_alloc_kb_per_item=${kb(phases.wait)}`,
			`ours_alloc_kb_per_item=${kb(byKind.get('ours') ?? 0)}`,
			`cpu_ms_per_item=${(cpu / n).toFixed(2)}`,
			`submit_cpu_ms_per_item=${(cpuAtSubmits / n).toFixed(2)}`,
			`requests_per_item=${(requests / n).toFixed(2)}`,
			`full_gcs=${gc.full}`,
			`minor_gcs=${gc.minor}`,
			`held_mb=${HELD_MB}`,
		].join(' '),
	);
	held.length = 0;
}

main().catch((error) => {
	console.error(error);
	child.kill();
	process.exitCode = 1;
});
