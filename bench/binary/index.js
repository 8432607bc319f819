#!/usr/bin/env node
/*
 * npm run bench:binary [-- --modes memory,filesystem,database] [--videos 3] [--size-mb 250] [--heap-cap-mb 384]
 * (not part of CI: about 2 minutes per mode)
 *
 * Large videos in a real n8n (`n8n start`, 2.41.1 unless N8N_VERSION), its heap capped, in each of
 * n8n's binary data modes (N8N_DEFAULT_BINARY_DATA_MODE): `default` (memory: n8n 1.x's default),
 * `filesystem` (2.x's default), `database` (2.x queue mode's default). Each mode gets its own
 * n8n on a fresh user folder with the packed package; the simulator serves each finished video as
 * a streamed file of exactly --size-mb MB (videoBytes). One workflow (Webhook → Video → Generate,
 * sora-2, Wait for Completion and Download Result on, On Error = Continue → a record of its items)
 * is started --videos times at once, one video per execution, so the videos finish together and
 * their downloads overlap.
 *
 * Measured per mode: n8n's RSS (the kernel's figure, every 200 ms) over its idle baseline, V8's heap
 * and Node's external memory (buffers) from n8n's /metrics, how the executions ended (n8n's own
 * status; an n8n that died is started again on the same folder, and what it then calls crashed is
 * counted), the items with a stored file, and the items that kept their receipt (task id and result
 * URL, in a stored file's item or in an error item).
 *
 * BENCH_PACKAGE_DIR=<folder>: the package packed from that checkout (built) instead of this one.
 *
 * The last lines, one per mode:
 *   bench-binary mode=<m> videos=3 size_mb=250 heap_cap_mb=384 rss_peak_over_baseline_mb=… crashed=0 stored=… receipts_kept=…
 */

'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');

const n8n = require('../../test/n8n');
const { startInstance } = require('../../test/n8n/instance');
const { removeTempDir, tempDir } = require('../../test/n8n/tempdirs');
const { startSimulator } = require('../../test/simulator');
const { rssMb, sampleRss } = require('../n8n/measure');

const VERSION = process.env.N8N_VERSION || n8n.NEWEST_2X;
const GW = 'n8n-nodes-unified-ai-gateway.unifiedAiGateway';
const WORKFLOW_ID = 'benchBinary';
const HOOK = 'bench-binary';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What each mode is called in n8n's setting, and what else a line needs for it. */
const MODES = {
	memory: (line) => ({ N8N_DEFAULT_BINARY_DATA_MODE: 'default', ...(line.major < 2 ? { N8N_AVAILABLE_BINARY_DATA_MODES: 'filesystem' } : {}) }),
	filesystem: () => ({ N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' }),
	// 1.x offers database mode only when listed among the available modes.
	database: (line) => ({ N8N_DEFAULT_BINARY_DATA_MODE: 'database', ...(line.major < 2 ? { N8N_AVAILABLE_BINARY_DATA_MODES: 'filesystem,database' } : {}) }),
};

function parseArgs(args) {
	const value = (name) => {
		const i = args.indexOf(name);
		return i >= 0 ? args[i + 1] : undefined;
	};
	const modes = (value('--modes') ?? 'memory,filesystem,database').split(',').map((m) => m.trim());
	for (const m of modes) if (!MODES[m]) throw new Error(`--modes: unknown mode ${m} (memory, filesystem, database)`);
	return {
		modes,
		videos: Number(value('--videos') ?? 3),
		sizeMb: Number(value('--size-mb') ?? 250),
		heapCapMb: Number(value('--heap-cap-mb') ?? 384),
	};
}

function node(id, name, type, parameters, extra = {}) {
	return { id: `b1a4b000-0000-4000-8000-${String(id).padStart(12, '0')}`, name, type, typeVersion: 1, position: [id * 220, 0], parameters, ...extra };
}

/** Webhook → one sora-2 video, waited for and downloaded (errors as items) → its record. */
function workflow() {
	const q = (name, value) => ({ name, value });
	const items = '$input.all()';
	return {
		id: WORKFLOW_ID,
		name: 'bench-binary: one large video, waited and downloaded',
		active: false,
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all' },
		nodes: [
			node(1, 'Webhook', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path: HOOK, responseMode: 'onReceived', options: {} }, { typeVersion: 2, webhookId: `b1a4b000-${HOOK}` }),
			node(
				2,
				'Video',
				GW,
				{
					resource: 'video',
					operation: 'generate',
					modelId: { __rl: true, mode: 'id', value: 'sora-2' },
					prompt: '={{ $json.body.prompt }}',
					videoSeconds_sora2: '8',
					videoSize_sora2: '720x1280',
					waitForCompletion: true,
					waiting: { pollIntervalSeconds: 5, maxWaitMinutes: 10, onTimeout: 'fail' },
					download: true,
					options: {},
				},
				{ credentials: { unifiedAiGatewayApi: { id: '{{CRED_ID}}', name: '{{CRED_NAME}}' } }, onError: 'continueRegularOutput' },
			),
			node(
				3,
				'Recorded',
				'n8n-nodes-base.httpRequest',
				{
					method: 'POST',
					url: '{{SIM_FILES}}/e2e/record',
					sendQuery: true,
					queryParameters: {
						parameters: [
							q('run', '={{ $("Webhook").first().json.body.run }}'),
							q('execution', '={{ $execution.id }}'),
							q('items', `={{ ${items}.length }}`),
							q('stored', `={{ ${items}.filter((i) => i.binary && i.binary.data && (i.binary.data.id || i.binary.data.data)).length }}`),
							q('failed', `={{ ${items}.filter((i) => i.json.error !== undefined).length }}`),
							// The receipt: the task id and the result URL, whether the file came or not.
							q('receipts', `={{ ${items}.filter((i) => typeof i.json.taskId === 'string' && typeof i.json.url === 'string' && i.json.url.length > 0).length }}`),
							q('error', `={{ String(${items}.map((i) => i.json.error).filter(Boolean)[0] || '').slice(0, 300) }}`),
						],
					},
					options: {},
				},
				{ typeVersion: 4.2, executeOnce: true },
			),
		],
		connections: {
			Webhook: { main: [[{ node: 'Video', type: 'main', index: 0 }]] },
			Video: { main: [[{ node: 'Recorded', type: 'main', index: 0 }]] },
		},
		pinData: {},
	};
}

/** V8's heap in use and Node's external memory (Buffers) of an n8n process, from its /metrics, in MB. */
async function memoryMetrics(baseUrl) {
	try {
		const res = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(3000) });
		if (res.status !== 200) return undefined;
		const text = await res.text();
		const metric = (name) => {
			const m = new RegExp(`^\\w*${name}(?:\\{[^}]*\\})?\\s+([\\d.eE+-]+)$`, 'm').exec(text);
			return m ? Number(m[1]) / 1024 / 1024 : NaN;
		};
		return { heapMb: metric('nodejs_heap_size_used_bytes'), externalMb: metric('nodejs_external_memory_bytes') };
	} catch {
		return undefined;
	}
}

function sampleMetrics(baseUrl, everyMs = 500) {
	const peak = { heapMb: 0, externalMb: 0 };
	const timer = setInterval(() => {
		void memoryMetrics(baseUrl).then((m) => {
			if (!m) return;
			if (Number.isFinite(m.heapMb)) peak.heapMb = Math.max(peak.heapMb, m.heapMb);
			if (Number.isFinite(m.externalMb)) peak.externalMb = Math.max(peak.externalMb, m.externalMb);
		});
	}, everyMs);
	return { stop: () => (clearInterval(timer), peak) };
}

const alive = (pid) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

/** The executions of the bench workflow (n8n's REST list) with their status. */
async function executions(inst) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: WORKFLOW_ID }));
	const { json } = await n8n.restJson(inst.n8n.baseUrl, 'GET', `/rest/executions?filter=${filter}&limit=100`, undefined, inst.cookie);
	const list = json.results ?? json.data?.results ?? json;
	return Array.isArray(list) ? list : [];
}

/** The tail of n8n's log that tells why it ended (V8's "heap out of memory", a signal). */
function deathNote(logFile) {
	try {
		const lines = fs.readFileSync(logFile, 'utf8').split('\n');
		const fatal = lines.find((l) => /heap out of memory|Allocation failed|FATAL ERROR/i.test(l));
		return fatal ? fatal.trim().slice(0, 160) : lines.filter(Boolean).slice(-1)[0]?.slice(0, 160);
	} catch {
		return undefined;
	}
}

async function runMode(mode, opts, { sim, tgz, root }) {
	const line = n8n.n8nLine(VERSION);
	const dir = path.join(root, mode);
	fs.mkdirSync(dir, { recursive: true });
	const env = { N8N_METRICS: 'true', NODE_OPTIONS: `--max-old-space-size=${opts.heapCapMb}`, ...MODES[mode](line) };
	const inst = await startInstance({
		version: VERSION,
		mode: 'start',
		dir,
		// BENCH_PACKAGE_DIR: pack another checkout (built), e.g. the code before a change, for a comparison.
		...(tgz ? { tgz } : { packDir: dir, packageDir: process.env.BENCH_PACKAGE_DIR }),
		simulator: sim,
		workflows: [workflow()],
		publish: [WORKFLOW_ID],
		probes: [{ path: HOOK, body: { run: 'probe', prompt: 'probe', probe: true } }],
		env,
		login: true,
	});
	const result = { mode, tgz: inst.tgz };
	// Stopped whatever happens: a sampler left running would keep this process alive.
	const samplers = [];
	try {
		// The probes ran the workflow: their executions are not the bench's; wait until n8n is idle.
		await sleep(8000);
		sim.reset();
		sim.inject({ method: 'POST', path: '/e2e/record', origin: 'files', status: 200, body: { ok: true }, times: Infinity });
		sim.scenario('sora-2', { durationMs: 3000, urlField: 'result_url', videoBytes: opts.sizeMb * 1024 * 1024 });
		const pid = inst.n8n.pid;
		const samples = [];
		for (let i = 0; i < 5; i++) {
			samples.push(rssMb(pid));
			await sleep(400);
		}
		const baseline = Math.min(...samples);
		const before = new Set((await executions(inst)).map((e) => String(e.id)));
		const rss = sampleRss([{ name: 'main', pid }]);
		const metrics = sampleMetrics(inst.n8n.baseUrl);
		samplers.push(rss, metrics);
		const started = Date.now();
		const run = `bench-${mode}-${started}`;
		// A POST that n8n, dying, never answers is no error of the bench: its death is what is measured.
		const posted = await Promise.allSettled(
			Array.from({ length: opts.videos }, (_, i) =>
				fetch(`${inst.n8n.baseUrl}/webhook/${HOOK}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ run, prompt: `${run} video ${i}` }) }).then(async (res) => {
					if (res.status !== 200) throw new Error(`POST /webhook/${HOOK} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
				}),
			),
		);
		const refused = posted.find((p) => p.status === 'rejected');
		if (refused && alive(pid)) throw refused.reason;
		const records = () => sim.find('POST', '/e2e/record', 'files').filter((r) => r.query.run === run);
		const deadline = Date.now() + 6 * 60_000;
		let died = false;
		while (records().length < opts.videos && Date.now() < deadline) {
			if (!alive(pid)) {
				died = true;
				break;
			}
			await sleep(500);
		}
		// Memory that comes back after the last store counts too: sample a little longer.
		if (!died) await sleep(2000);
		const peak = rss.stop().main;
		const heap = metrics.stop();
		result.seconds = (Date.now() - started) / 1000;
		result.rssPeakOverBaseline = Math.max(0, peak - baseline);
		result.baseline = baseline;
		result.heapPeakMb = heap.heapMb;
		result.externalPeakMb = heap.externalMb;
		const got = records();
		const sum = (key) => got.reduce((n, r) => n + Number(r.query[key] || 0), 0);
		result.stored = sum('stored');
		result.receipts = sum('receipts');
		result.failed = sum('failed');
		result.errors = [...new Set(got.map((r) => r.query.error).filter(Boolean))];
		result.files = sim.requests.filter((r) => /\.mp4$|\/content$/.test(r.path)).length;
		if (died) {
			result.died = deathNote(inst.n8n.logFile) ?? 'the n8n process ended';
			await inst.stopN8n().catch(() => {});
			// n8n started again on the same folder marks what the dead process was running as crashed.
			await inst.start({ env, login: 'existing', probes: [] });
		}
		// n8n's own word on each execution (a process that died leaves them crashed, once started again).
		let list = [];
		for (let i = 0; i < 20; i++) {
			list = (await executions(inst)).filter((e) => !before.has(String(e.id)));
			if (list.length >= opts.videos && list.every((e) => !['new', 'running'].includes(e.status))) break;
			await sleep(1000);
		}
		result.executions = list.length;
		result.statuses = list.map((e) => e.status);
		result.crashed = died ? Math.max(list.filter((e) => e.status !== 'success').length, opts.videos - got.length) : list.filter((e) => e.status === 'crashed').length;
	} finally {
		for (const sampler of samplers) sampler.stop();
		await inst.stop();
	}
	return result;
}

async function main() {
	const opts = parseArgs(process.argv.slice(2));
	const keep = process.env.E2E_KEEP === '1';
	// Removed at exit, on a failure and on Ctrl-C too (test/n8n/tempdirs.js), unless E2E_KEEP=1.
	const root = tempDir('bench-binary-', { keep });
	let sim;
	const results = [];
	try {
		await n8n.prepareN8n({ version: VERSION });
		sim = await startSimulator({ apiKey: n8n.SIM_API_KEY });
		let tgz;
		for (const mode of opts.modes) {
			const t = Date.now();
			const r = await runMode(mode, opts, { sim, tgz, root });
			tgz = r.tgz;
			results.push(r);
			console.log(
				`${mode}: ${r.seconds.toFixed(1)} s, RSS baseline ${r.baseline.toFixed(0)} MB, peak +${r.rssPeakOverBaseline.toFixed(0)} MB; V8 heap peak ${r.heapPeakMb.toFixed(0)} MB, ` +
					`external (buffers) peak ${r.externalPeakMb.toFixed(0)} MB; executions ${r.statuses.join(', ') || 'none'}; file requests ${r.files}` +
					`${r.died ? `; n8n DIED: ${r.died}` : ''}${r.errors.length ? `\n  item errors: ${r.errors.join(' | ')}` : ''} (${((Date.now() - t) / 1000).toFixed(0)} s in all)`,
			);
		}
	} finally {
		if (sim) await sim.close().catch(() => {});
		if (keep) console.log(`kept ${root}`);
		else removeTempDir(root);
	}
	console.log(`n8n ${VERSION}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
	for (const r of results) {
		console.log(
			`bench-binary mode=${r.mode} videos=${opts.videos} size_mb=${opts.sizeMb} heap_cap_mb=${opts.heapCapMb} rss_peak_over_baseline_mb=${Math.round(r.rssPeakOverBaseline)} crashed=${r.crashed} stored=${r.stored} receipts_kept=${r.receipts}`,
		);
	}
	return results.some((r) => r.crashed > 0 || r.died) ? 1 : 0;
}

main().then(
	(code) => (process.exitCode = code),
	(e) => {
		console.error(e);
		process.exitCode = 1;
	},
);
