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
 * What each operation does with its optional fields left out, observed from runs, for every
 * operation the node lists (nothing here names one): each run fills in only what the operation
 * needs to run at all, read from its description, and leaves every other field alone:
 *
 * - a field marked required, as it shows with the others at their defaults: a model picker its
 *   default model, a Task ID a task made on the simulator, a text its placeholder (a URL one of
 *   the simulator's files), a fixed collection its default entries with their required texts;
 * - one input item carrying a PNG in `data`, for an operation that reads a binary;
 * - a model picker runs again with one model of each other way its group answers (a task on each
 *   query route of the registry's rows): what a sync answer and a task each get is recorded.
 *
 * An operation that cannot run so fails the lock, naming the field the run asked for.
 */
function runsOf(description, context, { sim, taskId, registry }) {
	const [resource, operation] = context.split('/');
	const props = description.properties;
	const at = { resource, operation };
	for (const p of props) if (!(p.name in at)) at[p.name] = p.default;
	const modelField = props.find((p) => p.type === 'resourceLocator' && showsWith(p, at));
	if (modelField) at.modelId = modelField.default.value;
	const parameters = {};
	for (const p of props.filter((q) => q.required && showsWith(q, at))) parameters[p.name] = filled(p, { sim, taskId });
	for (const p of props.filter((q) => q.type === 'fixedCollection' && showsWith(q, at)))
		if (JSON.stringify(p.default) !== '{}') parameters[p.name] = filledCollection(p, { sim, taskId });
	const base = { parameters: { resource, operation, ...parameters } };
	if (!modelField) return [base];
	// The group's other ways of answering: the first task row of each query route it has.
	const group = modelField.modes[0].typeOptions.searchListMethod.replace(/^search|Models$/g, '').toLowerCase();
	const others = new Map();
	for (const row of registry.MODELS.filter((m) => m.group === group && m.mode === 'task' && m.id !== at.modelId)) {
		const shown = { ...at, modelId: row.id };
		if (!props.some((p) => p.name === 'operation' && showsWith(p, shown))) continue;
		if (operation === 'edit' && !row.fields?.edit) continue;
		if (!others.has(row.queryRoute)) others.set(row.queryRoute, row);
	}
	return [
		base,
		...[...others.values()].map((row) => ({
			parameters: { ...base.parameters, modelId: rl(row.id), ...(row.host === 'alt' && hostOf(props, row) ? { imageHost: 'alt' } : {}) },
		})),
	];
}

/** Whether a property shows for these values (every condition judged; one on an unknown field does not hold). */
function showsWith(property, values) {
	const { show, hide } = property.displayOptions ?? {};
	const key = (raw) => raw.replace(/^\//, '');
	const holds = (raw, allowed) => allowed.some((v) => JSON.stringify(v) === JSON.stringify(values[key(raw)]));
	if (Object.entries(show ?? {}).some(([raw, allowed]) => !holds(raw, allowed))) return false;
	return !Object.entries(hide ?? {}).some(([raw, allowed]) => holds(raw, allowed));
}

/** A model served by both hosts picks its host with the Host field. */
function hostOf(props, row) {
	return props.some((p) => p.name === 'imageHost' && p.displayOptions?.show?.['/modelId']?.includes(row.id));
}

/** The value a required field gets: what a user would first type. */
function filled(property, { sim, taskId }) {
	if (property.type === 'resourceLocator') return rl(property.default.value);
	if (property.name === 'taskId') return taskId;
	// A required field with a default of its own (an input binary field's `data`) keeps it.
	if (property.default !== '' && property.default !== undefined) return property.default;
	const text = property.placeholder ?? 'a red fox';
	return /^https?:\/\//.test(text) ? `${sim.filesUrl}/files/ref.png` : text;
}

/** A fixed collection's default entries, each required text of an entry filled. */
function filledCollection(property, context) {
	return Object.fromEntries(
		Object.entries(property.default).map(([name, entries]) => {
			const option = property.options.find((o) => o.name === name);
			const fill = (entry) =>
				Object.fromEntries(
					Object.entries(entry).map(([field, value]) => {
						const spec = option?.values?.find((v) => v.name === field);
						return [field, spec?.required && value === '' ? filled(spec, context) : value];
					}),
				);
			return [name, Array.isArray(entries) ? entries.map(fill) : fill(entries)];
		}),
	);
}

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
	wrap('engine/running/batch.js', 'readItems', ([, , settings]) => {
		seen.concurrency.push(settings.concurrency);
	});
	wrap('engine/running/perItem.js', 'forEachItem', ([, , , concurrency]) => {
		seen.concurrency.push(concurrency ?? requireDist('engine/concurrency.js').DEFAULT_CONCURRENCY);
	});
	return { seen, undo: () => undo.forEach((fn) => fn()) };
}

/** What one run recorded, as the lock's `inCode` entries of its operation. */
function inCodeOf(seen, requireDist) {
	const { QUERY_ROUTES } = requireDist('api/tasks/routes.js');
	const { modeLimitMb } = requireDist('engine/files/binaryStore.js');
	const { FILE_KINDS, fileKindOfMime } = requireDist('registry/fileKinds.js');
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
	// A request whose timeout follows the model (a sync image call holds its answer longer) keeps each.
	const timeouts = new Map();
	for (const req of seen.requests) timeouts.set(req.name, new Set([...(timeouts.get(req.name) ?? []), (req.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000]));
	for (const [name, seconds] of [...timeouts].sort()) {
		const values = [...seconds].sort((a, b) => a - b);
		out[`timeout of ${name} (seconds)`] = values.length === 1 ? values[0] : { variants: values };
	}
	for (const download of seen.downloads.slice(0, 1)) {
		const kind = download.kind ?? fileKindOfMime(download.defaultMimeType) ?? 'image';
		const limit = (mode) => (download.maxBytes === undefined ? modeLimitMb(FILE_KINDS[kind].maxMb, mode) : download.maxBytes / 1024 / 1024);
		for (const mode of ['database', 'filesystem', 'memory']) out[`options.maxFileSizeMb left out, ${kind} in ${mode} mode (MB)`] = limit(mode);
		out['options.downloadTimeoutSeconds left out'] = download.timeoutMs === undefined ? (download.deadlineName ?? 'the download’s own bound') : download.timeoutMs / 1000;
	}
	return out;
}

/**
 * Every operation of the node run with its optional fields left out (runsOf), against a simulator of its
 * own; `runNode` and the dist loader are the harness's (jest's module registry under jest).
 */
async function codeDefaults({ runNode, makeBinary, requireDist = (file) => require(path.join(DIST, file)), only } = {}) {
	const harness = require('./harness');
	runNode ??= harness.runNode;
	makeBinary ??= harness.makeBinary;
	const { startSimulator } = require('./simulator');
	const { createTask, API_KEY } = require('./support');
	const { pngFor } = require('./simulator/png');
	const description = harness.loadNode('unifiedAiGateway').description;
	const registry = requireDist('registry/models.js');
	const sim = await startSimulator({ apiKey: API_KEY });
	const creds = { baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey: API_KEY };
	const result = {};
	try {
		const operations = contexts(description.properties, NODES.unifiedAiGateway).map((c) => `${c.resource}/${c.operation}`);
		for (const context of operations.filter((name) => !only || only.includes(name))) {
			const watch = watchEngine(requireDist);
			try {
				sim.reset();
				// Tasks done at once: a task operation reads a finished task, a wait ends at its first read.
				sim.scenario('*', { durationMs: 0 });
				const taskId = await createTask(sim);
				// The input file: the first kind the operation takes, its resource's own kind first (a recording
				// for Audio, a clip for Video), then a picture, a PDF. Refused inputs send nothing, so see nothing.
				const files = requireDist('registry/groups.js').MODEL_GROUPS[context.split('/')[0]]?.files;
				const inputs = [
					...(files === 'audio' ? [[require('./audio/wav').silentWav(0.25), 'input.wav', 'audio/wav']] : []),
					...(files === 'video' ? [[require('./simulator/mp4').smallMp4(), 'input.mp4', 'video/mp4']] : []),
					[pngFor('defaults'), 'ref.png', 'image/png'],
					[Buffer.from('%PDF-1.4\n%%EOF\n'), 'input.pdf', 'application/pdf'],
				];
				for (const { parameters } of runsOf(description, context, { sim, taskId, registry })) {
					let run;
					for (const [bytes, fileName, mimeType] of inputs) {
						const input = await makeBinary(bytes, fileName, mimeType);
						run = await runNode({ parameters, credentials: creds, items: [{ json: {}, binary: { data: input } }] });
						if (!run.error || !/Nothing was sent/.test(String(run.error.description))) break;
					}
					if (run.error) throw new Error(`${context} with only its required fields (${JSON.stringify(parameters)}) failed: ${run.error.message}`);
				}
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

module.exports = { currentDefaults, codeDefaults, descriptionDefaults, differences, readLock, requestName, runsOf, LOCK, HOW };

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
