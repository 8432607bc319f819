#!/usr/bin/env node
'use strict';
/*
 * A user's first ten minutes: run the example workflows of examples/ in a real n8n.
 *
 *   npm run demo                      builds, then runs this file against the gateway simulator
 *   npm run demo -- --live            the same examples against your gateway (costs money):
 *                                     UAG_BASE_URL, UAG_API_KEY, optional UAG_ALT_BASE_URL
 *   npm run demo -- --live --yes      without the confirmation question
 *
 * Steps: prepare n8n 1.123.81 (installed once, reused), pack this package and install it into a
 * temp n8n user folder, start the simulator (short task durations), import the gateway credential,
 * the same gateway as an OpenAI credential (the AI Agent's chat model) and every examples/*.json, run
 * each example with `n8n execute`, print what came out and write the files to demo-output/<example>/. The simulator and n8n are stopped at the end, on failure and on
 * Ctrl-C. Exit code 1 when an example failed.
 *
 * Environment: N8N_VERSION (the n8n line, default 1.123.81), N8N_E2E_DIR (where n8n is installed, default ~/.cache/n8n-nodes-unified-ai-gateway/n8n-<version>), DEMO_LIVE=1 (= --live),
 * DEMO_KEEP=1 (keep the temp n8n user folder), DEMO_TASK_MS (simulated image task duration, default
 * 3000; videos take 2.5 times as long).
 */

const childProcess = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const readline = require('readline');

// Every child process (npm, n8n) is tracked so that Ctrl-C, a kill or a failure never leaves one
// running: the e2e helpers spawn through child_process.spawn, so it is wrapped before they load.
const children = new Set();
const originalSpawn = childProcess.spawn;
childProcess.spawn = function trackedSpawn(...args) {
	const child = originalSpawn.apply(this, args);
	children.add(child);
	child.once('exit', () => children.delete(child));
	child.once('error', () => children.delete(child));
	return child;
};

const e2e = require('../test/e2e/run-e2e');
const { chatModelCredential } = require('../test/e2e/chat-credential');

const REPO_ROOT = path.resolve(__dirname, '..');
const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
const OUTPUT_DIR = path.join(REPO_ROOT, 'demo-output');
const OUR_PACKAGE = 'n8n-nodes-unified-ai-gateway';
const CRED = { id: 'uagDemoCred', name: 'Unified AI Gateway account' };
// The AI Agent's chat model (n8n's OpenAI Chat Model node) on the same gateway, its OpenAI-style API.
const CHAT_CRED = { id: 'uagDemoChat', name: 'Gateway as OpenAI (chat)' };
const SIM_KEY = e2e.SIM_API_KEY;

// ---------------------------------------------------------------------------
// The examples: what each shows, whether it can run under `n8n execute`, what to write out.

const EXAMPLES = [
	{
		name: 'marketing-pipeline',
		what: 'products → ad prompt (Text) → ad image (Image) → ad video from that image (Video)',
		items: 2, // products in its "Products" node: used for the cost estimate of --live
		files: ['Campaign Assets'],
		timeoutMin: 40, // the video node waits up to 30 minutes on a real gateway
	},
	{
		name: 'reference-edit',
		what: 'a local PNG → File → Upload Image → Image → Edit with the uploaded URL',
		items: 1,
		files: ['Sketch as PNG', 'Edit Sketch'],
		timeoutMin: 15,
	},
	{
		name: 'scheduled-batch-submit',
		what: 'Schedule (or Manual) Trigger → prompts → Image → Generate without waiting: task IDs',
		items: 3,
		files: [],
		timeoutMin: 5,
	},
	{
		name: 'scheduled-batch-collect',
		what: 'Unified AI Gateway Trigger (Task Finished) → one item per finished task, image downloaded',
		items: 3,
		files: ['Finished Image'],
		timeoutMin: 15,
		emulated:
			'Its Unified AI Gateway Trigger polls only in an active workflow (n8n start); `n8n execute` cannot ' +
			'start a polling trigger. The demo put the task IDs from scheduled-batch-submit into the trigger\'s ' +
			'Task IDs and runs the workflow\'s "Check Now" branch instead: Task → Wait for Completion on the same IDs, ' +
			'which gives the same items (state, URL, downloaded image), all at once.',
	},
	{
		name: 'ai-agent-tool',
		what: 'AI Agent with a chat model on the gateway and the gateway node as its tools (balance, image)',
		items: 1,
		files: [],
		timeoutMin: 10,
		// The chat model node takes an OpenAI credential: the demo makes one for the gateway (chatCredential).
		agent: 'chat tokens for each of its turns + 0.015 USD per image it asks for (1 expected)',
	},
];

// ---------------------------------------------------------------------------
// Output helpers

const tty = process.stdout.isTTY === true;
const color = (code) => (text) => (tty && !process.env.NO_COLOR ? `\x1b[${code}m${text}\x1b[0m` : String(text));
const bold = color('1');
const dim = color('2');
const green = color('32');
const red = color('31');
const yellow = color('33');

let secrets = [SIM_KEY];
function hide(text) {
	let out = e2e.redact(text);
	for (const s of secrets) if (s && s.length >= 6) out = out.split(s).join('***');
	return out;
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const rel = (p) => path.relative(process.cwd(), p) || '.';

function bytes(n) {
	if (n < 1024) return `${n} B`;
	if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
	return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function usd(n) {
	return `${Number(n.toFixed(6))} USD`;
}

function excerpt(text, max = 70) {
	const one = String(text ?? '').replace(/\s+/g, ' ').trim();
	return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** A file-name part: product names in lower case, task IDs as they are (to match the gateway). */
function slug(text, keepCase = false) {
	const value = keepCase ? String(text ?? '') : String(text ?? '').toLowerCase();
	return (
		value
			.replace(/[^A-Za-z0-9_.-]+/g, '-')
			.replace(/^-+|-+$/g, '')
			.slice(0, 60) || 'file'
	);
}

/**
 * A line that shows progress while a command runs: a spinner redrawn in place on a terminal;
 * in a log (no terminal), a line whenever the detail changes (at most every 2 s) and at least
 * every 10 s ("still running").
 */
function progress(label, detail = () => '') {
	const started = Date.now();
	const frames = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
	let frame = 0;
	let lastLine = Date.now();
	let lastDetail = '';
	const draw = () => {
		if (interrupted) return;
		const s = Math.round((Date.now() - started) / 1000);
		const extra = detail();
		if (tty) {
			const line = `  ${frames[frame++ % frames.length]} ${label} (${s} s)${extra ? ` · ${extra}` : ''}`;
			process.stdout.write(`\r\x1b[2K${line.slice(0, (process.stdout.columns || 120) - 1)}`);
			return;
		}
		const since = Date.now() - lastLine;
		if ((extra && extra !== lastDetail && since >= 2000) || since >= 10000) {
			lastLine = Date.now();
			lastDetail = extra;
			console.log(`  … still running (${s} s)${extra ? `: ${extra}` : ''}`);
		}
	};
	const timer = setInterval(draw, tty ? 120 : 500);
	return {
		stop() {
			clearInterval(timer);
			if (tty) process.stdout.write('\r\x1b[2K');
		},
	};
}

async function step(label, fn) {
	const p = progress(label);
	const started = Date.now();
	try {
		const result = await fn();
		p.stop();
		console.log(`${green('✔')} ${label} ${dim(`(${seconds(Date.now() - started)})`)}`);
		return result;
	} catch (error) {
		p.stop();
		console.log(`${red('✘')} ${label}`);
		throw error;
	}
}

// ---------------------------------------------------------------------------
// Workflows

function loadExample(name) {
	const file = path.join(EXAMPLES_DIR, `${name}.json`);
	return { file, workflow: JSON.parse(fs.readFileSync(file, 'utf8')) };
}

const isOurs = (node) => String(node.type).startsWith(`${OUR_PACKAGE}.`);

/** The workflow with every gateway credential pointing at the demo's credential. */
function withDemoCredential(workflow) {
	const copy = JSON.parse(JSON.stringify(workflow));
	for (const node of copy.nodes) {
		if (node.credentials && node.credentials.unifiedAiGatewayApi) node.credentials.unifiedAiGatewayApi = { ...CRED };
		if (node.credentials && node.credentials.openAiApi) node.credentials.openAiApi = { ...CHAT_CRED };
	}
	return copy;
}

// ---------------------------------------------------------------------------
// Cost estimate (for --live, and as "what this would cost" after a simulator run)

function registry(file) {
	return require(path.join(REPO_ROOT, 'dist', 'nodes', 'UnifiedAiGateway', 'registry', file));
}

function imageCall(node, count) {
	const p = node.parameters || {};
	const modelId = typeof p.modelId === 'object' ? p.modelId.value : p.modelId;
	const rows = registry('imageModels.js').IMAGE_MODELS.filter((m) => m.id === modelId);
	const row = rows.find((m) => m.host === (p.imageHost || rows[0]?.host)) || rows[0];
	if (!row || !row.price) return { text: `${count} × ${modelId} (not in the price list)`, usd: 0, unknown: true };
	const price = row.price;
	const rule = price.multiplierField && row.fields?.[p.operation]?.[price.multiplierField];
	const sent = price.multiplierField ? (p[price.multiplierField] ?? p.imageOptions?.[price.multiplierField] ?? rule?.default) : undefined;
	const multiplier = sent === undefined ? 1 : (price.multipliers?.[String(sent)] ?? 1);
	const n = Number(p.n ?? 1);
	const each = price.baseUsd * multiplier * n;
	const how = `${price.baseUsd} USD${multiplier !== 1 ? ` × ${multiplier} (${sent})` : ''}${n !== 1 ? ` × ${n} images` : ''}`;
	return { text: `${count} × ${modelId} ${p.operation} at ${how} = ${usd(each * count)}`, usd: each * count };
}

/** What running an example costs on a real gateway: a sum in USD plus what the price list lacks. */
function estimate(example, workflow) {
	const lines = [];
	const extra = [];
	let total = 0;
	if (example.agent) {
		lines.push(`AI Agent: ${example.agent}`);
		total += 0.015;
		extra.push('the agent\'s chat tokens');
	}
	for (const node of workflow.nodes.filter(isOurs)) {
		const p = node.parameters || {};
		const count = example.items;
		if (node.type.endsWith('Tool')) continue; // called as often as the agent decides (see example.agent)
		if (p.resource === 'image') {
			const call = imageCall(node, count);
			total += call.usd;
			lines.push(`${node.name}: ${call.text}`);
		} else if (p.resource === 'video') {
			const modelId = typeof p.modelId === 'object' ? p.modelId.value : p.modelId;
			const length = p.videoSeconds ?? p.videoDuration ?? p.videoMetadataDurationSeconds;
			lines.push(`${node.name}: ${count} × ${length ? `${length}-second ` : ''}${modelId} video at the site price (pre-charged by duration)`);
			extra.push(`${count} ${modelId} video${count === 1 ? '' : 's'}`);
		} else if (p.resource === 'text') {
			lines.push(`${node.name}: ${count} chat call${count === 1 ? '' : 's'}, billed per token at the gateway's price`);
			extra.push(`${count} chat call${count === 1 ? '' : 's'} (per token)`);
		} else {
			const what = node.type.endsWith('Trigger')
				? 'the trigger reads tasks'
				: { file: 'upload', task: 'task queries', account: 'account query' }[p.resource] || p.resource;
			lines.push(`${node.name}: free (${what})`);
		}
	}
	return { lines, total, extra };
}

function costText(total, extra) {
	return `${usd(total)}${extra.length ? ` + ${extra.join(' + ')}` : ''}`;
}

// ---------------------------------------------------------------------------
// Reading a run

/** The items of a node's first run: main output, or the ai_tool output of a node run as a tool. */
function nodeItems(run, name) {
	const task = run.data.resultData.runData[name]?.[0];
	return task?.data?.main?.[0] ?? task?.data?.ai_tool?.[0] ?? task?.data?.ai_languageModel?.[0] ?? [];
}

/** The chat model under an agent: one run per model call. */
function describeChatModel(runs) {
	const tokens = runs.reduce((sum, r) => sum + (r.data?.ai_languageModel?.[0]?.[0]?.json?.tokenUsage?.totalTokens ?? 0), 0);
	return `${runs.length} chat call${runs.length === 1 ? '' : 's'} to the gateway${tokens ? ` (${tokens} tokens)` : ''}`;
}

/** The AI Agent's answer: its lines, URLs whole (the rest shortened). */
function describeAgent(items) {
	const answer = String(items[0]?.json?.output ?? '');
	return ['answer:', ...answer.split('\n').map((line) => `  ${/https?:\/\//.test(line) ? line : excerpt(line, 100)}`)];
}

function shortId(id) {
	return String(id);
}

/** One line about what one of our nodes did, from its output items. */
function describeOurNode(node, items) {
	const p = node.parameters || {};
	const json = items.map((i) => i.json);
	const errors = json.filter((j) => j.error && !j.taskId && !j.url);
	const count = items.length;
	const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
	if (p.resource === 'text') {
		const tokens = json.reduce((sum, j) => sum + (j.usage?.total_tokens ?? 0), 0);
		const model = json[0]?.model ?? '';
		return [`${plural(count, 'answer')} from ${model}${tokens ? ` (${tokens} tokens)` : ''}`, ...json.map((j) => `  “${excerpt(j.text)}”`)];
	}
	if (p.resource === 'file') {
		return json.map((j) => `uploaded ${j.filename} (${j.bytes} B) → ${j.url}${j.expiresAt ? `, valid until ${j.expiresAt}` : ''}`);
	}
	if (p.resource === 'image') {
		const pending = json.filter((j) => j.pending);
		if (pending.length) {
			return [
				`${plural(pending.length, 'task')} submitted, not waited for (Wait for Completion off):`,
				...pending.map((j) => `  ${shortId(j.taskId)}  ${j.status}  (${j.model}, query route ${j.queryRoute})`),
			];
		}
		const cost = json.reduce((sum, j) => sum + (j.estimatedCost?.amount ?? 0), 0);
		const model = json[0]?.model ?? '';
		const tasks = json.filter((j) => j.taskId).map((j) => `${shortId(j.taskId)} completed`);
		return [`${plural(count, 'image')} from ${model}${cost ? `, estimated ${usd(cost)}` : ''}${tasks.length ? `: ${tasks.join(', ')}` : ''}`];
	}
	if (p.resource === 'video') {
		return [
			`${plural(count, 'video')}:`,
			...json.map((j) =>
				j.pending
					? `  ${shortId(j.taskId)}  ${j.status} (still running: resume with Task → Wait for Completion)`
					: `  ${shortId(j.taskId)}  ${j.status}  (${j.model}, ${j.seconds ?? '?'} s, ${j.size ?? j.resolution ?? ''})`,
			),
		];
	}
	if (p.resource === 'task') {
		return [
			`${plural(count, 'task')} read:`,
			...json.map((j) => `  ${shortId(j.taskId)}  ${j.error ? `failed: ${excerpt(j.error, 90)}` : `${j.state ?? j.status}${j.progress !== undefined ? ` ${j.progress}%` : ''}`}`),
		];
	}
	if (p.resource === 'account') {
		return json.map((j) => excerpt(JSON.stringify(j), 100));
	}
	return [`${plural(count, 'item')}${errors.length ? `, ${errors.length} with errors` : ''}`];
}

function extensionOf(binary) {
	const fromName = path.extname(String(binary.fileName || ''));
	if (fromName) return fromName;
	if (binary.fileExtension) return `.${binary.fileExtension}`;
	const sub = String(binary.mimeType || '').split('/')[1];
	return sub ? `.${sub.replace(/[^a-z0-9]/gi, '')}` : '.bin';
}

/** The bytes of one binary of the run: base64 in the run (default mode), else n8n's file store. */
function binaryBytes(binary, userFolder) {
	if (binary.data && !String(binary.data).startsWith('filesystem')) return Buffer.from(binary.data, 'base64');
	const id = String(binary.id || '');
	const file = id.includes(':') ? path.join(userFolder, '.n8n', 'binaryData', id.slice(id.indexOf(':') + 1)) : '';
	if (file && fs.existsSync(file)) return fs.readFileSync(file);
	return undefined;
}

/** Writes the binaries of the example's chosen nodes to demo-output/<example>/. */
function writeFiles(example, run, userFolder) {
	const dir = path.join(OUTPUT_DIR, example.name);
	fs.rmSync(dir, { recursive: true, force: true });
	const written = [];
	const used = new Set();
	for (const nodeName of example.files) {
		for (const [index, item] of nodeItems(run, nodeName).entries()) {
			const entries = Object.entries(item.binary || {});
			for (const [key, binary] of entries) {
				const data = binaryBytes(binary, userFolder);
				if (!data) continue;
				const label = item.json.product
					? slug(item.json.product)
					: slug(item.json.taskId ?? path.parse(String(binary.fileName || `item-${index + 1}`)).name, true);
				let base = `${slug(nodeName)}-${label}${entries.length > 1 || key !== 'data' ? `-${slug(key)}` : ''}`;
				if (used.has(base)) base = `${base}-${index + 1}`;
				used.add(base);
				const file = path.join(dir, `${base}${extensionOf(binary)}`);
				fs.mkdirSync(dir, { recursive: true });
				fs.writeFileSync(file, data);
				written.push({ file, size: data.length, mimeType: binary.mimeType, sha: crypto.createHash('sha256').update(data).digest('hex') });
			}
		}
	}
	return { dir, written };
}

/**
 * An agent's results are links in its answer (its tools do not download): fetched here, without
 * any key (result URLs are public), into demo-output/<example>/.
 */
async function writeLinkedFiles(example, run) {
	const dir = path.join(OUTPUT_DIR, example.name);
	const answer = String(nodeItems(run, 'AI Agent')[0]?.json?.output ?? '');
	const urls = [...new Set(answer.match(/https?:\/\/[^\s"'<>)\]]+/g) || [])];
	const written = [];
	for (const url of urls) {
		try {
			const res = await fetch(url, { signal: AbortSignal.timeout(60000) });
			if (!res.ok) continue;
			const data = Buffer.from(await res.arrayBuffer());
			const mimeType = (res.headers.get('content-type') || '').split(';')[0];
			const name = slug(path.parse(new URL(url).pathname).name, true);
			const file = path.join(dir, `${name}${extensionOf({ fileName: new URL(url).pathname, mimeType })}`);
			fs.mkdirSync(dir, { recursive: true });
			fs.writeFileSync(file, data);
			written.push({ file, size: data.length, mimeType });
		} catch {
			// a link that does not download is still in the printed answer
		}
	}
	if (written.length) {
		console.log(`    files the answer links to, written to ${rel(dir)}/`);
		for (const f of written) console.log(`      ${path.basename(f.file)}  ${dim(`${bytes(f.size)}, ${f.mimeType}`)}`);
	}
	return { dir, written };
}

// ---------------------------------------------------------------------------
// Watching the simulator while n8n runs (what the nodes are waiting for)

const TASK_PATH = /^\/v1\/(?:tasks|images\/generations|videos)\/([^/]+)$/;

function simDetail(sim, fromIndex) {
	if (!sim) return () => '';
	return () => {
		const requests = sim.requests.slice(fromIndex);
		const ids = [...new Set(requests.filter((r) => r.method === 'GET').map((r) => (TASK_PATH.exec(r.path) || [])[1]).filter(Boolean))];
		const tasks = ids.map((id) => sim.task(id)).filter(Boolean);
		const kinds = new Map();
		for (const r of requests.filter((q) => q.method === 'POST')) {
			const kind = /chat/.test(r.path) ? 'chat' : /upload/.test(r.path) ? 'upload' : /video/.test(r.path) ? 'video' : 'image';
			kinds.set(kind, (kinds.get(kind) || 0) + 1);
		}
		const calls = [...kinds.entries()].map(([kind, n]) => `${n} ${kind}`).join(', ');
		if (!tasks.length) return calls ? `gateway calls: ${calls}` : '';
		const byState = new Map();
		for (const t of tasks) {
			const key = `${t.kind} ${t.status}`;
			const entry = byState.get(key) || { n: 0, progress: [] };
			entry.n++;
			if (t.status === 'in_progress') entry.progress.push(t.progress);
			byState.set(key, entry);
		}
		const parts = [...byState.entries()].map(
			([key, v]) => `${v.n} ${key}${v.progress.length ? ` ${Math.min(...v.progress)}%` : ''}`,
		);
		return `tasks: ${parts.join(', ')}`;
	};
}

// ---------------------------------------------------------------------------
// Options and confirmation

function parseArgs(argv) {
	const opts = { live: process.env.DEMO_LIVE === '1', yes: false, keep: process.env.DEMO_KEEP === '1', help: false };
	for (const arg of argv) {
		if (arg === '--live') opts.live = true;
		else if (arg === '--yes' || arg === '-y') opts.yes = true;
		else if (arg === '--keep') opts.keep = true;
		else if (arg === '--help' || arg === '-h') opts.help = true;
		else throw new Error(`unknown option ${arg} (see --help)`);
	}
	return opts;
}

const HELP = `npm run demo [-- options]

Runs the example workflows of examples/ in a real n8n ${e2e.N8N_VERSION}, against the gateway
simulator (no account, no network, free) or, with --live, against your gateway.

  --live     use UAG_BASE_URL, UAG_API_KEY (and optional UAG_ALT_BASE_URL) instead of the
             simulator; prints the estimated cost and asks before running (also DEMO_LIVE=1)
  --yes      with --live: do not ask
  --keep     keep the temp n8n user folder (also DEMO_KEEP=1)

Files the workflows produce are written to demo-output/<example>/.
n8n (N8N_VERSION, default 1.123.81) is installed once into $N8N_E2E_DIR (default ~/.cache/n8n-nodes-unified-ai-gateway/n8n-<version>) and reused.`;

async function ask(question) {
	const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
	try {
		return await new Promise((resolve) => rl.question(question, resolve));
	} finally {
		rl.close();
	}
}

function liveSettings() {
	const baseUrl = (process.env.UAG_BASE_URL || '').trim();
	const apiKey = (process.env.UAG_API_KEY || '').trim();
	const altBaseUrl = (process.env.UAG_ALT_BASE_URL || '').trim();
	const missing = [!baseUrl && 'UAG_BASE_URL', !apiKey && 'UAG_API_KEY'].filter(Boolean);
	if (missing.length) {
		throw new Error(
			`--live needs ${missing.join(' and ')} in the environment, e.g.\n` +
				'  UAG_BASE_URL=https://gateway.example.com/v1 UAG_API_KEY=sk-... npm run demo -- --live',
		);
	}
	return { baseUrl, apiKey, altBaseUrl };
}

// ---------------------------------------------------------------------------
// Main

async function main() {
	const started = Date.now();
	const opts = parseArgs(process.argv.slice(2));
	if (opts.help) {
		console.log(HELP);
		return 0;
	}
	const live = opts.live ? liveSettings() : undefined;
	if (live) secrets = [...secrets, live.apiKey];

	console.log(bold(`Unified AI Gateway nodes: demo in a real n8n ${e2e.N8N_VERSION}`));
	console.log(
		live
			? `Gateway: ${live.baseUrl} (live: real calls, real charges)`
			: 'Gateway: the simulator in test/simulator (no account, no network, nothing is charged)',
	);

	const examples = EXAMPLES.map((example) => ({ ...example, ...loadExample(example.name) }));
	const missingFiles = fs.readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.json') && !EXAMPLES.some((e) => `${e.name}.json` === f));
	if (missingFiles.length) console.log(yellow(`note: examples not known to the demo (imported only): ${missingFiles.join(', ')}`));

	// The cost, before anything runs (live), or as information (simulator).
	const costs = examples.filter((e) => !e.skip).map((e) => ({ example: e, ...estimate(e, e.workflow) }));
	const total = costs.reduce((sum, c) => sum + c.total, 0);
	const extra = costs.flatMap((c) => c.extra);
	if (live) {
		console.log(`\n${bold('Estimated cost')} (gateway price list; your plan decides the final charge):`);
		for (const c of costs) {
			console.log(`  ${c.example.name}`);
			for (const line of c.lines) console.log(`    ${line}`);
		}
		console.log(`  ${bold('Total')}: ${costText(total, extra)}`);
		console.log(dim('  Video is pre-charged by the site price and duration; chat is billed per token.'));
		if (!opts.yes) {
			if (!process.stdin.isTTY) {
				console.log(red('Not confirmed: no terminal to ask on. Add --yes to run anyway.'));
				return 2;
			}
			const answer = await ask(`Run the examples on ${live.baseUrl} and pay for it? Type "yes" to continue: `);
			if (String(answer).trim().toLowerCase() !== 'yes') {
				console.log('Cancelled: nothing was sent.');
				return 2;
			}
		}
	}

	const results = [];
	let sim;
	const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'uag-demo-'));
	const userFolder = path.join(tmpRoot, 'user');
	fs.mkdirSync(userFolder, { recursive: true });
	cleanup.tmpRoot = opts.keep ? undefined : tmpRoot;

	console.log(`\n${bold('Setting up')}`);
	const host = await e2e.prepareN8n();
	console.log(`${green('✔')} n8n ${e2e.N8N_VERSION} ${host.reused ? 'reused from' : 'installed into'} ${rel(host.dir)}`);
	await step(`packed this package and installed it into a fresh n8n user folder`, () =>
		e2e.installPackage(userFolder, { packDir: tmpRoot }),
	);

	let credential;
	let gateway;
	if (live) {
		credential = e2e.gatewayCredential({ ...CRED, ...live });
		// The OpenAI Chat Model node appends /chat/completions to its Base URL as it is: it must end in /v1.
		gateway = { baseUrl: `${live.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1`, apiKey: live.apiKey };
	} else {
		sim = await startSimulator();
		cleanup.sim = sim;
		console.log(`${green('✔')} gateway simulator on ${sim.mainUrl} (image tasks take ${seconds(taskMs())}, videos ${seconds(videoMs())})`);
		credential = e2e.gatewayCredential({ ...CRED, baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey: SIM_KEY });
		gateway = { baseUrl: `${sim.mainUrl}/v1`, apiKey: SIM_KEY };
	}
	await step(`imported the credentials "${CRED.name}" and "${CHAT_CRED.name}" (${live ? live.baseUrl : 'the simulator'})`, () =>
		e2e.importCredential(userFolder, [credential, chatModelCredential({ ...CHAT_CRED, ...gateway })]),
	);
	await step(`imported ${examples.length} example workflows (n8n import:workflow)`, () =>
		e2e.importWorkflow(userFolder, examples.map((e) => withDemoCredential(e.workflow))),
	);

	let submittedIds = [];
	for (const example of examples) {
		console.log(`\n${bold(example.name)}  ${dim(rel(example.file))}`);
		console.log(`  ${example.what}`);
		if (example.skip) {
			console.log(`${yellow('–')} skipped: ${example.skip}`);
			results.push({ example, status: 'skipped' });
			continue;
		}
		let workflow = withDemoCredential(example.workflow);
		if (example.emulated) {
			if (!submittedIds.length) {
				console.log(`${yellow('–')} skipped: no task IDs from scheduled-batch-submit to collect`);
				results.push({ example, status: 'skipped' });
				continue;
			}
			workflow = withTriggerIds(workflow, submittedIds);
			console.log(`  ${dim(example.emulated)}`);
			await e2e.importWorkflow(userFolder, workflow);
		}
		const result = await runExample(example, workflow, userFolder, sim, live);
		results.push(result);
		if (result.status === 'ok' && example.name === 'scheduled-batch-submit') {
			submittedIds = nodeItems(result.run, 'Submit Images').map((i) => i.json.taskId).filter(Boolean);
		}
	}

	const ok = results.filter((r) => r.status === 'ok').length;
	const failed = results.filter((r) => r.status === 'failed');
	const skipped = results.filter((r) => r.status === 'skipped').length;
	console.log(`\n${bold('Summary')}`);
	for (const r of results) {
		const mark = r.status === 'ok' ? green('✔') : r.status === 'failed' ? red('✘') : yellow('–');
		const files = r.files && r.files.written.length ? `, ${r.files.written.length} file(s) in ${rel(r.files.dir)}/` : '';
		console.log(`  ${mark} ${r.example.name.padEnd(24)} ${r.status}${r.ms ? ` in ${seconds(r.ms)}` : ''}${files}`);
	}
	console.log(`${ok} ok, ${failed.length} failed, ${skipped} skipped; ${seconds(Date.now() - started)} in all.`);
	if (!live) {
		console.log(
			`On a real gateway the runnable examples would cost about ${costText(total, extra)} ` +
				`(npm run demo -- --live shows the details and asks first).`,
		);
	}
	console.log(`Import the examples into your n8n: Workflows → Import from File… → ${rel(EXAMPLES_DIR)}/*.json.`);
	if (opts.keep) console.log(`Kept the n8n user folder: ${userFolder}`);
	return failed.length ? 1 : 0;
}

function taskMs() {
	const n = Number(process.env.DEMO_TASK_MS);
	return Number.isFinite(n) && n >= 0 ? n : 3000;
}

function videoMs() {
	return Math.round(taskMs() * 2.5);
}

async function startSimulator() {
	const { startSimulator: start } = require('../test/simulator');
	const sim = await start({ apiKey: SIM_KEY });
	// Tasks take a few seconds: quick, but long enough to see the nodes wait. Videos take a bit
	// longer than the node's 5-second video poll interval, so their progress shows on the way.
	const steps = [0, 20, 40, 60, 80, 100];
	sim.scenario('*', { durationMs: taskMs(), progressSteps: steps });
	for (const model of registry('videoModels.js').VIDEO_MODELS) {
		sim.scenario(model.id, { durationMs: videoMs(), progressSteps: steps });
	}
	return sim;
}

/** The collect workflow with the trigger's Task IDs set to the IDs the submit run returned. */
function withTriggerIds(workflow, ids) {
	const copy = JSON.parse(JSON.stringify(workflow));
	for (const node of copy.nodes) {
		if (node.type === `${OUR_PACKAGE}.unifiedAiGatewayTrigger`) node.parameters.taskIds = ids.join('\n');
	}
	return copy;
}

async function runExample(example, workflow, userFolder, sim, live) {
	// Files of an earlier demo run must not pass for this run's.
	fs.rmSync(path.join(OUTPUT_DIR, example.name), { recursive: true, force: true });
	const fromIndex = sim ? sim.requests.length : 0;
	const watch = progress(`n8n execute --id=${workflow.id}`, simDetail(sim, fromIndex));
	let res;
	try {
		res = await e2e.executeWorkflow(userFolder, workflow.id, {
			timeoutMs: (live ? example.timeoutMin : 3) * 60000,
			// Simulator: files inline in the run JSON (base64). Live: videos can be large, so n8n keeps
			// them in its file store and the demo reads them from there (binaryBytes).
			env: { N8N_DEFAULT_BINARY_DATA_MODE: live ? 'filesystem' : 'default' },
		});
	} finally {
		watch.stop();
	}
	const result = { example, ms: res.ms, run: res.run };
	// What each node did, in execution order.
	const byName = new Map(workflow.nodes.map((n) => [n.name, n]));
	const runData = res.run ? res.run.data.resultData.runData : {};
	for (const name of Object.keys(runData)) {
		const node = byName.get(name);
		if (!node || /manualTrigger|scheduleTrigger|stickyNote/.test(node.type)) continue;
		const taskData = runData[name][0];
		if (taskData && taskData.error) {
			console.log(`    ${name.padEnd(22)} ${red(`error: ${excerpt(hide(taskData.error.message), 120)}`)}`);
			continue;
		}
		const items = nodeItems(res.run, name);
		const lines = isOurs(node)
			? describeOurNode(node, items)
			: /\.agent$/.test(node.type)
				? describeAgent(items)
				: /\.lmChat/.test(node.type)
					? [describeChatModel(runData[name])]
					: [`${items.length} item${items.length === 1 ? '' : 's'}`];
		console.log(`    ${name.padEnd(22)} ${hide(lines[0])}`);
		for (const line of lines.slice(1)) console.log(`    ${''.padEnd(22)} ${hide(line)}`);
	}
	if (!res.ok) {
		console.log(`${red('✘')} ${example.name} failed after ${seconds(res.ms)}`);
		console.log(
			hide(res.error)
				.split('\n')
				.slice(0, 12)
				.map((l) => `    ${l}`)
				.join('\n'),
		);
		return { ...result, status: 'failed' };
	}
	if (example.agent) result.files = await writeLinkedFiles(example, res.run);
	if (example.files.length) {
		result.files = writeFiles(example, res.run, userFolder);
		if (result.files.written.length) {
			console.log(`    files written to ${rel(result.files.dir)}/`);
			for (const f of result.files.written) console.log(`      ${path.basename(f.file)}  ${dim(`${bytes(f.size)}, ${f.mimeType}`)}`);
		}
	}
	console.log(`${green('✔')} ${example.name} ran in ${seconds(res.ms)} (n8n start-up included)`);
	return { ...result, status: 'ok' };
}

// ---------------------------------------------------------------------------
// Clean end: on success, failure, Ctrl-C or SIGTERM, stop the children and the simulator.

const cleanup = { sim: undefined, tmpRoot: undefined, done: false };

async function stopChildren() {
	const running = [...children].filter((c) => c.exitCode === null && c.signalCode === null);
	if (!running.length) return;
	await Promise.all(
		running.map(
			(child) =>
				new Promise((resolve) => {
					const timer = setTimeout(() => {
						try {
							child.kill('SIGKILL');
						} catch {
							// already gone
						}
						resolve();
					}, 3000);
					child.once('exit', () => {
						clearTimeout(timer);
						resolve();
					});
					try {
						child.kill('SIGTERM');
					} catch {
						clearTimeout(timer);
						resolve();
					}
				}),
		),
	);
}

async function finish() {
	if (cleanup.done) return;
	cleanup.done = true;
	await stopChildren();
	if (cleanup.sim) {
		try {
			await cleanup.sim.close();
		} catch {
			// closing is best effort
		}
	}
	if (cleanup.tmpRoot) fs.rmSync(cleanup.tmpRoot, { recursive: true, force: true });
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		if (interrupted) return;
		interrupted = true;
		if (tty) process.stdout.write('\r\x1b[2K');
		console.log(`\n${yellow(`Interrupted (${signal}): stopping n8n and the simulator…`)}`);
		finish().finally(() => {
			console.log('Stopped: no n8n or simulator left running.');
			process.exit(130);
		});
	});
}

if (require.main === module) {
	main()
		.then(
			(code) => code,
			(error) => {
				// After Ctrl-C the stopped children make the step in progress fail: not worth a message.
				if (!interrupted) console.log(`\n${red('Demo failed:')} ${hide(error && error.message ? error.message : String(error))}`);
				return 1;
			},
		)
		.then(async (code) => {
			await finish();
			if (!interrupted) process.exit(code);
		});
}
