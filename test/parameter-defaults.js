#!/usr/bin/env node
'use strict';
/*
 * The defaults users rely on are a published interface like the names (docs/DEVELOPMENT.md,
 * "Parameter names"): a workflow saved with a field left at its default runs with whatever the
 * default is today. test/parameter-defaults.lock.json holds them per resource and operation (the
 * trigger's per event), from the two places the node takes them:
 *
 * - `defaults`: every field's default in the node's description (collections' options as
 *   `waiting.maxWaitMinutes`), as n8n fills in a field left alone;
 * - `inCode`: what the node does with a field left out, read where the engine is handed it: each
 *   operation run through n8n's execution code against the simulator with every optional field
 *   left out, the values recorded as they reach the engine (the wait's Max Wait and Poll Interval
 *   per query route, the Concurrency limit, each request's timeout, a download's limits). A default
 *   kept in code (an operation's WAIT, a route's advised interval, a timeout constant) is
 *   locked as the node uses it, wherever it is defined.
 *
 *   node test/parameter-defaults.js            print what differs from the lock (exit 1 when anything does)
 *   node test/parameter-defaults.js --update   rewrite the lock from the built node, on purpose
 */
const fs = require('node:fs');
const path = require('node:path');

const { contexts, mayShow, NODES } = require('./parameter-names');

const LOCK = path.join(__dirname, 'parameter-defaults.lock.json');
const DIST = path.join(__dirname, '..', 'dist', 'nodes', 'UnifiedAiGateway');
const HOW = 'If the change is on purpose (a default saved workflows get: say so in CHANGELOG.md), run `node test/parameter-defaults.js --update` and commit the lock with it.';

/** name → default of a property, and of every entry of its collections (dotted paths), at any depth. */
function defaultsOf(property, prefix = '') {
	const name = `${prefix}${property.name}`;
	const own = [[name, property.default]];
	if (property.type === 'collection') return [...own, ...(property.options ?? []).flatMap((o) => defaultsOf(o, `${name}.`))];
	if (property.type === 'fixedCollection') {
		return [...own, ...(property.options ?? []).flatMap((o) => (o.values ?? []).flatMap((v) => defaultsOf(v, `${name}.${o.name}.`)))];
	}
	return own;
}

/** { version, defaults: { 'image/generate': { name: default } } } of one node's description. */
function descriptionDefaults(description, keys) {
	const defaults = {};
	for (const fixed of contexts(description.properties, keys)) {
		const seen = new Map();
		for (const [name, value] of description.properties.filter((p) => mayShow(p, fixed)).flatMap((p) => defaultsOf(p))) {
			const values = seen.get(name) ?? new Map();
			values.set(JSON.stringify(value), value);
			seen.set(name, values);
		}
		// A name shown under other conditions with another default (a model's variant) keeps each.
		defaults[keys.map((k) => fixed[k]).join('/')] = Object.fromEntries(
			[...seen.keys()].sort().map((name) => {
				const values = [...seen.get(name).entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, v]) => v);
				return [name, values.length === 1 ? values[0] : { variants: values }];
			}),
		);
	}
	return { version: description.version, defaults };
}

/*
 * What each operation does with its optional fields left out. `parameters` are what the operation
 * needs to run at all (the model, a prompt, a task id); every other field is left alone.
 */
const RUNS = {
	'image/generate': () => ({ parameters: { modelId: rl('gpt-image-2-async'), prompt: 'a red fox' } }),
	'image/edit': ({ sim }) => ({ parameters: { modelId: rl('nano-banana-2'), prompt: 'a red fox', referenceSource: 'urls', referenceUrls: `${sim.filesUrl}/files/ref.png` } }),
	'video/generate': () => ({ parameters: { modelId: rl('sora-2'), prompt: 'a red fox' } }),
	'task/get': ({ taskId }) => ({ parameters: { taskId } }),
	'task/waitForCompletion': ({ taskId }) => ({ parameters: { taskId } }),
	'task/checkOnce': ({ taskId }) => ({ parameters: { taskId } }),
	'task/downloadResult': ({ taskId }) => ({ parameters: { taskId, queryRoute: 'image' } }),
	'text/message': () => ({ parameters: { modelId: rl('gpt-5.6-sol'), messages: { values: [{ role: 'user', content: 'hello' }] } } }),
	'file/uploadImage': ({ png }) => ({ parameters: {}, items: [{ json: {}, binary: { data: png } }] }),
	'account/getTokenBalance': () => ({ parameters: {} }),
	'account/getUserBalance': () => ({ parameters: {} }),
	'account/listModels': () => ({ parameters: {} }),
};

function rl(value) {
	return { __rl: true, mode: 'id', value };
}

/** A request's path with its ids taken out: `GET /v1/images/generations/{id}`. */
function requestName(req) {
	// An id by its prefix, or else by a digit among its characters: a random id may hold no digit.
	const route = String(req.path)
		.replace(/\?.*$/, '')
		.replace(/\/(?:(?:task_|img_|vid_|video_)[A-Za-z0-9_-]+|[A-Za-z0-9_-]*\d[A-Za-z0-9_-]{5,})/g, '/{id}');
	return `${req.method ?? 'GET'} ${route}`;
}

/**
 * Wraps exported functions of the built modules (compiled CommonJS calls them through the module
 * object, so every caller gets the wrapper) and returns what they were handed.
 */
function watchEngine(requireDist) {
	const seen = { waits: [], requests: [], downloads: [], concurrency: [] };
	const undo = [];
	const wrap = (file, name, record) => {
		const mod = requireDist(file);
		const original = mod[name];
		mod[name] = function (...args) {
			const changed = record(args, this);
			return original.apply(this, changed ?? args);
		};
		undo.push(() => (mod[name] = original));
	};
	// The wait: its options as the engine gets them; run with a short interval on the loopback simulator.
	wrap('engine/waiting/waiter.js', 'waitForTasks', ([ctx, source, options = {}]) => {
		seen.waits.push({ deadlineMs: options.deadlineMs, intervalMs: options.intervalMs });
		return [ctx, source, { ...options, intervalMs: 20 }];
	});
	wrap('transport/request.js', 'gatewayRequest', ([req]) => {
		seen.requests.push({ name: requestName(req), timeoutMs: req.timeoutMs });
	});
	wrap('engine/files/downloads.js', 'deliverFile', ([, , options]) => {
		seen.downloads.push({ ...options });
	});
	wrap('engine/running/jobRunner.js', 'runJobs', ([, , plan]) => {
		seen.concurrency.push(plan.concurrency);
	});
	wrap('engine/running/perItem.js', 'forEachItem', ([, , , concurrency]) => {
		seen.concurrency.push(concurrency ?? requireDist('engine/concurrency.js').DEFAULT_CONCURRENCY);
	});
	return { seen, undo: () => undo.forEach((fn) => fn()) };
}

/** What one run recorded, as the lock's `inCode` entries of its operation. */
function inCodeOf(seen, requireDist) {
	const { QUERY_ROUTES } = requireDist('api/tasks/routes.js');
	const { MAX_FILE_MB, modeLimitMb } = requireDist('engine/files/binaryStore.js');
	const { DEFAULT_TIMEOUT_MS } = requireDist('transport/request.js');
	const routes = Object.keys(QUERY_ROUTES).sort();
	const out = {};
	for (const wait of seen.waits.slice(0, 1)) {
		if (wait.deadlineMs !== undefined) out['waiting.maxWaitMinutes left out (minutes)'] = wait.deadlineMs / 60_000;
		// What a gateway that is not on loopback gets (the engine raises a lower value to the route's advice).
		for (const route of routes) {
			const advice = QUERY_ROUTES[route].intervalMs;
			out[`waiting.pollIntervalSeconds left out, ${route} route (seconds)`] = Math.max(wait.intervalMs ?? advice, advice) / 1000;
		}
	}
	// Without a Max Wait of its own, a task is given up after its query route's deadline.
	const readsTasks = seen.requests.some((r) => /^GET .*\{id\}/.test(r.name));
	if ((seen.waits.length === 0 && readsTasks) || seen.waits.some((wait) => wait.deadlineMs === undefined)) {
		for (const route of routes) out[`${route} route: a task's deadline (minutes)`] = QUERY_ROUTES[route].deadlineMs / 60_000;
	}
	if (seen.concurrency.length) out['options.concurrency left out'] = seen.concurrency[0];
	const timeouts = new Map();
	for (const req of seen.requests) if (!timeouts.has(req.name)) timeouts.set(req.name, (req.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000);
	for (const [name, seconds] of [...timeouts].sort()) out[`timeout of ${name} (seconds)`] = seconds;
	for (const download of seen.downloads.slice(0, 1)) {
		const kind = download.kind ?? (String(download.defaultMimeType).startsWith('video/') ? 'video' : 'image');
		const limit = (mode) => (download.maxBytes === undefined ? modeLimitMb(MAX_FILE_MB[kind], mode) : download.maxBytes / 1024 / 1024);
		for (const mode of ['database', 'filesystem', 'memory']) out[`options.maxFileSizeMb left out, ${kind} in ${mode} mode (MB)`] = limit(mode);
		out['options.downloadTimeoutSeconds left out'] = download.timeoutMs === undefined ? (download.deadlineName ?? 'the download’s own bound') : download.timeoutMs / 1000;
	}
	return out;
}

/**
 * Every operation of RUNS run once with its optional fields left out, against a simulator of its
 * own; `runNode` and the dist loader are the harness's (jest's module registry under jest).
 */
async function codeDefaults({ runNode, makeBinary, requireDist = (file) => require(path.join(DIST, file)), only } = {}) {
	const harness = require('./harness');
	runNode ??= harness.runNode;
	makeBinary ??= harness.makeBinary;
	const { startSimulator } = require('./simulator');
	const { createTask, API_KEY } = require('./support');
	const { pngFor } = require('./simulator/png');
	const sim = await startSimulator({ apiKey: API_KEY });
	const creds = { baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey: API_KEY };
	const result = {};
	try {
		for (const [context, make] of Object.entries(RUNS).filter(([name]) => !only || only.includes(name))) {
			sim.reset();
			// Tasks done at once: a task operation reads a finished task, a wait ends at its first read.
			sim.scenario('*', { durationMs: 0 });
			const taskId = context.startsWith('task/') ? await createTask(sim) : undefined;
			const png = context === 'file/uploadImage' ? await makeBinary(pngFor('defaults'), 'ref.png', 'image/png') : undefined;
			const [resource, operation] = context.split('/');
			const { parameters, items } = make({ sim, taskId, png });
			const watch = watchEngine(requireDist);
			try {
				const run = await runNode({ parameters: { resource, operation, ...parameters }, credentials: creds, items });
				if (run.error) throw new Error(`${context} with its fields left out failed: ${run.error.message}`);
			} finally {
				watch.undo();
			}
			result[context] = inCodeOf(watch.seen, requireDist);
		}
	} finally {
		await sim.close();
	}
	return result;
}

/** The lock's content for the built nodes: description defaults per node, code defaults per operation. */
async function currentDefaults(options = {}) {
	const load = options.load ?? require('./harness').loadNode;
	const nodes = Object.fromEntries(Object.entries(NODES).map(([node, keys]) => [node, descriptionDefaults(load(node).description, keys)]));
	const inCode = options.inCode ?? (await codeDefaults(options));
	for (const [context, values] of Object.entries(inCode)) nodes.unifiedAiGateway.defaults[context] = { ...nodes.unifiedAiGateway.defaults[context], ...prefixed(values) };
	return nodes;
}

/** Code defaults sit beside the description's under `(in code) …`, so one line names either. */
function prefixed(values) {
	return Object.fromEntries(Object.entries(values).map(([key, value]) => [`(in code) ${key}`, value]));
}

const show = (value) => (value === undefined ? '(none)' : JSON.stringify(value));

/** What differs between two sets of defaults, one line each (operation, field, old → new); empty when they agree. */
function differences(lock, current) {
	const lines = [];
	for (const node of Object.keys({ ...lock, ...current })) {
		const was = lock[node] ?? { defaults: {} };
		const now = current[node] ?? { defaults: {} };
		for (const context of [...new Set([...Object.keys(was.defaults), ...Object.keys(now.defaults)])].sort()) {
			const before = was.defaults[context] ?? {};
			const after = now.defaults[context] ?? {};
			for (const field of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
				if (JSON.stringify(before[field]) === JSON.stringify(after[field])) continue;
				lines.push(`${node} ${context}: ${field}: ${show(before[field])} → ${show(after[field])}`);
			}
		}
	}
	return lines.length ? [...lines, HOW] : [];
}

function readLock() {
	return JSON.parse(fs.readFileSync(LOCK, 'utf8')).nodes;
}

function writeLock(current) {
	const about =
		'Every default of the nodes per resource/operation (trigger: per event): the description\'s, and "(in code)" what an operation does with a field left out, recorded where the engine gets it. Saved workflows rely on them: see docs/DEVELOPMENT.md ("Parameter names"). Written by `node test/parameter-defaults.js --update`; checked by test/parameter-defaults.test.js.';
	fs.writeFileSync(LOCK, `${JSON.stringify({ about, nodes: current }, null, '\t')}\n`);
}

module.exports = { currentDefaults, codeDefaults, descriptionDefaults, differences, readLock, requestName, LOCK, HOW, RUNS };

if (require.main === module) {
	require('./build-current').ensureCurrent();
	require('./harness/env');
	currentDefaults()
		.then((current) => {
			if (process.argv.includes('--update')) {
				writeLock(current);
				console.log(`wrote ${path.relative(process.cwd(), LOCK)}`);
			} else {
				const lines = differences(readLock(), current);
				console.log(lines.length ? lines.join('\n') : 'the defaults match test/parameter-defaults.lock.json');
				process.exitCode = lines.length ? 1 : 0;
			}
		})
		.catch((error) => {
			console.error(error);
			process.exitCode = 1;
		});
}
