'use strict';
// Fault matrix, downloads: every way a file host can fail a paid result × sync image (no task id:
// its receipt is the full signed URL), task image and video (the task id), and the trigger. Each
// row checks the output, the error's words (who failed, what to do), the receipt in the item, in
// custom data and in n8n's log, and that the key shows up nowhere.
const { runNode, pollTrigger, useBinaryMode } = require('../harness');
const { useSimulator, createTask } = require('../support');
const { API_KEY, everythingVisible, captureLogs, sleep } = require('./pollMatrix');

const ctx = useSimulator({ scenario: { durationMs: 50, signedUrls: true } });

const rl = (value) => ({ __rl: true, mode: 'id', value });
const FILE = /\/files\/[^/]+\.(png|mp4)$/;
const HTML_EXPIRED = '<!DOCTYPE html><html><head><title>Link expired</title></head><body>This link has expired.</body></html>';
const XML_DENIED = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';

/** The four ways a result is fetched. `receipt(json, sim)` is what must survive every failure. */
const TARGETS = {
	'sync image': {
		kind: 'image',
		run: async (extra = {}, harness) => await node({ resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'a red bicycle', ...extra }, harness),
	},
	'task image': {
		kind: 'image',
		run: async (extra = {}, harness) => await node({ resource: 'image', operation: 'generate', modelId: rl('gpt-image-2-async'), prompt: 'a red bicycle', ...extra }, harness),
	},
	video: {
		kind: 'video',
		run: async (extra = {}, harness) => {
			ctx.sim.scenario('sora-2', { durationMs: 50, urlField: 'result_url', signedUrls: true, ...harness?.scenario });
			return await node({ resource: 'video', operation: 'generate', modelId: rl('sora-2'), prompt: 'waves', videoRoute: 'compatibility', ...extra }, harness);
		},
	},
	trigger: {
		kind: 'image',
		run: async (extra = {}, harness = {}) => {
			const id = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
			await sleep(150);
			const logs = captureLogs();
			const started = Date.now();
			try {
				const budget = extra.waiting?.maxWaitMinutes ? { pollBudgetMs: 8_000 } : {};
				const options = extra.options ? { options: extra.options } : {};
				const { result } = await pollTrigger({
					parameters: { event: 'taskFinished', taskIds: id, queryRoute: 'image', download: true, ...options },
					credentials: ctx.creds,
					workflowId: `downloads-${id}`,
					...budget,
					binaryMode: harness.binaryMode ?? 'default',
					binaryFault: harness.binaryFault,
				});
				const items = (result ?? [[]])[0].map((item) => ({ json: { ...item.json, error: item.json.downloadError }, binary: item.binary }));
				return { result: { items, run: undefined }, logs: logs.lines, durationMs: Date.now() - started };
			} finally {
				logs.restore();
			}
		},
	},
};

/** `harness`: where n8n keeps binaries in this run (binaryMode) and how its store fails (binaryFault). */
async function node(parameters, harness = {}) {
	const logs = captureLogs();
	const started = Date.now();
	try {
		const result = await runNode({
			parameters: { download: true, ...parameters, waiting: { pollIntervalSeconds: 0.1, ...parameters?.waiting } },
			credentials: ctx.creds,
			continueOnFail: true,
			binaryMode: harness.binaryMode ?? 'default',
			binaryFault: harness.binaryFault,
		});
		return { result, logs: logs.lines, durationMs: Date.now() - started };
	} finally {
		logs.restore();
	}
}

/**
 * The file host's requests once each connection has ended: the server hears a client leave a moment
 * after the run returns (milliseconds). Waits up to 5 s; a connection the node left open stays
 * without `closedAt` and the caller's check fails.
 */
async function fileRequestsClosed() {
	const files = () => ctx.sim.requests.filter((r) => r.origin === 'files');
	for (let waited = 0; waited < 5000 && files().some((r) => r.closedAt === undefined); waited += 20) await sleep(20);
	return files();
}

/** Every full result URL (query included) the node asked the file host for. */
const fetched = () =>
	ctx.sim.requests
		.filter((r) => r.origin === 'files')
		.map((r) => `${ctx.sim.filesUrl}${r.path}${Object.keys(r.query).length ? `?${new URLSearchParams(r.query)}` : ''}`);

const metadataOf = (result) => JSON.stringify(result.run?.data?.resultData?.metadata ?? {});
const logText = (logs) => logs.map((l) => `${l.message} ${JSON.stringify(l.meta ?? {})}`).join('\n');

/** What every failed row must show: the receipt everywhere, the key nowhere. */
function expectReceipt(target, { result, logs }, failed) {
	const json = failed.json;
	const url = fetched()[0];
	expect(url).toMatch(/\?X-Expires=\d+&X-Signature=[0-9a-f]+$/);
	if (target === 'sync image') {
		// No task id: the full signed URL is the receipt, in the item, its error, custom data and the log.
		expect(json.taskId).toBeUndefined();
		expect(json.url).toBe(url);
		expect(`${json.error}\n${json.description}`).toContain(url);
		expect(json.description).toMatch(/fetch this URL again before it expires/i);
		expect(metadataOf(result)).toContain(url);
		expect(logText(logs)).toContain(url);
	} else {
		expect(json.taskId).toMatch(/^task_/);
		expect(json.url).toBe(url);
		expect(`${json.error}\n${json.description ?? ''}`).toContain(url);
		if (target !== 'trigger') {
			expect(json.description).toMatch(/Task → Download Result/);
			expect(metadataOf(result)).toContain(json.taskId);
		}
		expect(logText(logs)).toContain(json.taskId);
		expect(logText(logs)).toContain(url);
	}
	expect(everythingVisible(result, logs)).not.toContain(API_KEY);
	expect(ctx.sim.requests.filter((r) => r.origin === 'files' && r.hasAuth)).toEqual([]);
}

/** The one failed item of a row (the trigger's item carries downloadError). */
function failedItem(run) {
	const failed = run.result.items.filter((i) => i.json.error);
	expect(failed).toHaveLength(1);
	expect(failed[0].binary).toBeUndefined();
	return failed[0];
}

const fileHost = /file host 127\.0\.0\.1:\d+/;

const CASES = {
	'403 from the file host (signed URL expired)': {
		inject: (sim) => sim.inject({ origin: 'files', path: FILE, status: 403, body: XML_DENIED, headers: { 'Content-Type': 'application/xml' }, times: Infinity }),
		error: (text) => {
			expect(text).toMatch(fileHost);
			expect(text).toMatch(/403/);
			// Recognised, never quoted: a file host's answer is shown by its kind and size only.
			expect(text).toMatch(/: the signed link has expired\n.* sent XML of 116 bytes, which says the link has expired; what it sent is not copied here/);
			expect(text).not.toMatch(/AccessDenied|Request has expired/);
			expect(text).not.toMatch(/the key may lack permission|balance may be too low/);
		},
	},
	'404 "expired" from the file host': {
		inject: (sim) => sim.inject({ origin: 'files', path: FILE, status: 404, body: 'link expired', times: Infinity }),
		error: (text) => {
			expect(text).toMatch(fileHost);
			expect(text).toMatch(/404/);
			expect(text).toMatch(/sent text of 12 bytes, which says the link has expired/);
			expect(text).not.toMatch(/"link expired"|: link expired/);
			expect(text).not.toMatch(/check the Base URL/i);
		},
	},
	'200 text/html "link expired"': {
		inject: (sim) => sim.inject({ origin: 'files', path: FILE, status: 200, body: HTML_EXPIRED, times: Infinity }),
		error: (text) => {
			expect(text).toMatch(fileHost);
			expect(text).toMatch(/an HTML page of 1\d\d bytes instead of/);
			expect(text).toMatch(/not (an image|a video|the result)/);
			expect(text).toMatch(/What it sent is not copied here/);
			expect(text).not.toMatch(/This link has expired|First bytes/);
		},
	},
	'HTML labelled image/png': {
		inject: (sim) => sim.inject({ origin: 'files', path: FILE, status: 200, body: HTML_EXPIRED, headers: { 'Content-Type': 'image/png' }, times: Infinity }),
		error: (text) => {
			expect(text).toMatch(fileHost);
			expect(text).toMatch(/HTML page/);
			expect(text).toMatch(/image\/png/);
		},
	},
	'200 XML error': {
		inject: (sim) => sim.inject({ origin: 'files', path: FILE, status: 200, body: XML_DENIED, headers: { 'Content-Type': 'application/octet-stream' }, times: Infinity }),
		error: (text) => {
			expect(text).toMatch(/sent XML of 116 bytes instead of/);
			expect(text).not.toMatch(/AccessDenied/);
		},
	},
	'0-byte body': {
		inject: (sim) => sim.inject({ origin: 'files', path: FILE, status: 200, body: '', headers: { 'Content-Type': 'image/png' }, times: Infinity }),
		error: (text) => {
			expect(text).toMatch(fileHost);
			expect(text).toMatch(/empty/);
		},
	},
	'body cut mid-file, every time': {
		inject: (sim) => sim.inject({ origin: 'files', path: FILE, kind: 'breakStream', times: Infinity }),
		error: (text) => {
			// Cut mid-body, or (a small file) before its headers were taken in: fetched again either way.
			expect(text).toMatch(/stopped arriving before its end|closed the connection before the result/);
			expect(text).toMatch(fileHost);
		},
		fetches: 3,
	},
	'redirect loop': {
		inject: (sim) => sim.redirect({ origin: 'files', path: FILE, to: 'files' }),
		error: (text) => {
			expect(text).toMatch(/redirect/i);
			expect(text).not.toMatch(/empty body/);
		},
	},
	'a file host that trickles past Max Wait': {
		inject: (sim) => sim.inject({ origin: 'files', path: FILE, kind: 'trickle', everyMs: 200, times: Infinity }),
		// A sync answer has no Max Wait of its own: the Download Timeout bounds it.
		parameters: (_target, name) => (name === 'sync image' ? { options: { downloadTimeoutSeconds: 3 } } : { waiting: { maxWaitMinutes: 0.08 } }),
		error: (text) => expect(text).toMatch(/did not finish within (Max Wait|Options → Download Timeout|the trigger's poll budget)/),
		// Cut at that limit, not left open: the trickle (64 KB at 5 bytes a second) would outlast the test.
		cut: true,
	},
	'a 300 MB "image" (or a video past the raised-down limit)': {
		inject: (sim, target) =>
			sim.inject({ origin: 'files', path: FILE, kind: 'huge', bytes: target.kind === 'video' ? 5 * 1024 * 1024 : 300 * 1024 * 1024, contentType: target.kind === 'video' ? 'video/mp4' : 'image/png', times: Infinity }),
		parameters: (target) => (target.kind === 'video' ? { options: { maxFileSizeMb: 1 } } : {}),
		error: (text) => {
			expect(text).toMatch(/larger than/);
			expect(text).toMatch(/Max File Size/);
		},
		// Refused by its size, not after taking it all (the 5 MB video is too small to tell by bytes).
		sentAtMost: (target) => (target.kind === 'video' ? undefined : 300 * 1024 * 1024 / 4),
	},
	// n8n's own storage fails while the file is stored: the n8n host, not the file host. Fetched once
	// (a full disk fails every try), the task's state stays what the gateway said (completed).
	"n8n's disk full while storing (ENOSPC)": {
		harness: { binaryMode: 'filesystem', binaryFault: { code: 'ENOSPC', afterBytes: 1024 } },
		error: (text) => {
			expect(text).toMatch(/could not be stored: the disk of the n8n host is full \(ENOSPC\)/);
			// Where n8n keeps binaries: its folder, named although a write error names no path.
			expect(text).toMatch(/n8n's binary-data folder \/\S+uag-binary-\w+ \(N8N_BINARY_DATA_STORAGE_PATH/);
			expect(text).toMatch(/not the gateway or its file host/);
			expect(text).not.toMatch(/stopped arriving|download interrupted|closed the connection/);
		},
		storage: true,
	},
	"n8n's binary folder not writable (EACCES)": {
		harness: { binaryMode: 'filesystem', binaryFault: { code: 'EACCES' } },
		error: (text) => {
			expect(text).toMatch(/n8n's storage on its host is not writable: n8n may not write there \(EACCES\)/);
			// The folder, from the path the error names.
			expect(text).toMatch(/binary-data folder \/\S+uag-binary-\w+ /);
		},
		storage: true,
	},
	"n8n's file system read-only (EROFS)": {
		harness: { binaryMode: 'filesystem', binaryFault: { code: 'EROFS' } },
		error: (text) => expect(text).toMatch(/not writable: its file system is read-only \(EROFS\)/),
		storage: true,
	},
	// n8n keeps binaries in memory (1.x's default): a file past what memory holds is refused before a byte is kept.
	'a 100 MB file while n8n keeps binary data in memory': {
		inject: (sim, target) =>
			sim.inject({ origin: 'files', path: FILE, kind: 'huge', bytes: 100 * 1024 * 1024, contentType: target.kind === 'video' ? 'video/mp4' : 'image/png', times: Infinity }),
		harness: { binaryMode: 'default' },
		error: (text, target) => {
			expect(text).toMatch(/larger than the limit of 24 MB for (images|videos) while n8n keeps binary data in memory \(it declares 100 MB\)/);
			expect(text).toMatch(/N8N_DEFAULT_BINARY_DATA_MODE=filesystem/);
		},
		sentAtMost: () => 100 * 1024 * 1024 / 4,
	},
	// Database mode: n8n's own limit per file (512 MB unless set) is applied before n8n gathers the file in memory.
	"a 600 MB file past n8n's database-mode limit": {
		inject: (sim, target) =>
			sim.inject({ origin: 'files', path: FILE, kind: 'huge', bytes: 600 * 1024 * 1024, contentType: target.kind === 'video' ? 'video/mp4' : 'image/png', times: Infinity }),
		harness: { binaryMode: 'database' },
		error: (text, target) => {
			if (target.kind === 'image') return expect(text).toMatch(/larger than the limit of 50 MB for images/);
			expect(text).toMatch(/larger than the limit of 512 MB for videos \(n8n's own default limit per file in its database binary mode\)/);
			expect(text).toMatch(/N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE/);
		},
		sentAtMost: () => 600 * 1024 * 1024 / 4,
	},
	// n8n's database limit set lower than its default: n8n itself refuses; named as n8n's limit, not fetched again.
	"n8n's database limit set lower (FileTooLargeError)": {
		harness: { binaryMode: 'database', dbMaxFileSizeMb: 0.001 },
		error: (text) => {
			expect(text).toMatch(/could not be stored: n8n refused to store it: the file is larger than n8n's limit of 0\.001 MB per file in database mode \(N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE\)/);
			expect(text).toMatch(/n8n's database/);
		},
		storage: true,
	},
};

describe.each(Object.keys(TARGETS))('%s', (targetName) => {
	const target = TARGETS[targetName];

	test.each(Object.keys(CASES))('%s: an error item with its receipt; nothing stored as a result', async (caseName) => {
		const row = CASES[caseName];
		row.inject?.(ctx.sim, target);
		const parameters = typeof row.parameters === 'function' ? row.parameters(target, targetName) : row.parameters ?? {};
		if (row.harness?.dbMaxFileSizeMb) (await useBinaryMode('database')).config.dbMaxFileSize = row.harness.dbMaxFileSizeMb;
		let run;
		try {
			run = await target.run(parameters, row.harness);
		} finally {
			if (row.harness?.dbMaxFileSizeMb) (await useBinaryMode('default')).config.dbMaxFileSize = 512;
		}
		const failed = failedItem(run);
		row.error(`${failed.json.error}\n${failed.json.description ?? ''}`, target);
		expectReceipt(targetName, run, failed);
		if (row.storage) {
			// n8n's own storage failed: the file was fetched once, and the finished task is not called failed.
			expect(ctx.sim.requests.filter((r) => r.origin === 'files').length).toBe(1);
			expect(failed.json.state).not.toBe('failed');
			if (targetName !== 'sync image') expect(`${failed.json.error}`).toMatch(/^The result .* could not be stored: .*\. Task task_\w+ completed at the gateway and was paid for/);
		}
		if (row.fetches) expect(ctx.sim.requests.filter((r) => r.origin === 'files').length).toBeGreaterThanOrEqual(row.fetches);
		// By bytes and by order, not by a clock: a file refused by its size was refused before a quarter
		// of it was sent (socket buffers included), and neither it nor a cut download left a connection open.
		const most = row.sentAtMost?.(target);
		if (most !== undefined) for (const file of ctx.sim.requests.filter((r) => r.origin === 'files')) expect(file.bytesSent).toBeLessThan(most);
		// A file refused by its declared size closes its connection too (n8n 2.x's body opens it only when read).
		if (row.cut || most !== undefined) for (const file of await fileRequestsClosed()) expect(file.closedAt).toBeDefined();
		// A submit is never repeated because a download failed.
		expect(ctx.sim.requests.filter((r) => r.method === 'POST').length).toBe(1);
	}, 30_000);

	test('a file name that cannot be URL-decoded is used as it is', async () => {
		ctx.sim.redirect({ origin: 'files', path: /\/files\/(img|task)[^%]*\.(png|mp4)$/, to: 'files', location: (p) => p.replace(/\/([^/]+)\.(png|mp4)$/, '/$1-50%off.$2'), times: 1 });
		const run = await target.run();
		const item = run.result.items[0];
		expect(item.json.error).toBeUndefined();
		expect(item.binary.data.fileName).toMatch(/50%off\.(png|mp4)$/);
	}, 30_000);
});

describe.each(['sync image', 'task image'])('%s with n = 4', (targetName) => {
	test('one bad URL: the three good images are output, the bad one is its own error item with its URL', async () => {
		// The task's answer lists all four URLs (docs/gateway-contract.md §4.5's full shape).
		ctx.sim.scenario('gpt-image-2-async', { durationMs: 50, signedUrls: true, imageShape: 'full', images: 4 });
		ctx.sim.inject({ origin: 'files', path: /-2\.png$/, status: 403, body: XML_DENIED, headers: { 'Content-Type': 'application/xml' }, times: Infinity });
		const run = await TARGETS[targetName].run({ n: 4 });
		const items = run.result.items;
		expect(items).toHaveLength(4);
		const good = items.filter((i) => i.binary?.data);
		expect(good).toHaveLength(3);
		const bad = items.filter((i) => i.json.error);
		expect(bad).toHaveLength(1);
		expect(bad[0].json.url).toMatch(/-2\.png\?X-Expires=\d+&X-Signature=/);
		expect(bad[0].json.error).toContain(bad[0].json.url);
		expect(bad[0].json.imageIndex).toBe(1);
		expect(ctx.sim.requests.filter((r) => r.method === 'POST').length).toBe(1);
		// Every receipt is in custom data or the log (a sync answer's URLs, else the task id), and the log names the bad URL.
		const all = `${metadataOf(run.result)}\n${logText(run.logs)}`;
		for (const item of items) expect(all).toContain(targetName === 'sync image' ? item.json.url : item.json.taskId);
		expect(logText(run.logs)).toContain(bad[0].json.url);
	}, 30_000);
});

describe('a huge file that does not declare its length', () => {
	test('is counted while it arrives and refused past the limit: nothing stored, the receipt kept', async () => {
		ctx.sim.inject({ origin: 'files', path: FILE, kind: 'huge', bytes: 300 * 1024 * 1024, declareLength: false, times: Infinity });
		const run = await TARGETS['sync image'].run();
		const failed = failedItem(run);
		// The harness keeps binaries in memory, as n8n 1.x does by default: that limit applies.
		expect(failed.json.error).toMatch(/larger than the limit of 24 MB for images while n8n keeps binary data in memory \(more than that arrived\)/);
		expectReceipt('sync image', run, failed);
		// Counted as it arrived: the node let go past the 24 MB limit, not after the 300 MB (by bytes, not a clock).
		const [file] = ctx.sim.requests.filter((r) => r.origin === 'files');
		expect(file.bytesSent).toBeLessThan(300 * 1024 * 1024 / 4);
	}, 30_000);
});

describe('Stop pressed mid-download', () => {
	test('sync image: the download ends at once; the full signed URL stays in custom data, the log and the error', async () => {
		ctx.sim.inject({ origin: 'files', path: FILE, kind: 'trickle', everyMs: 200, times: Infinity });
		const logs = captureLogs();
		let result;
		try {
			result = await runNode({
				parameters: { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'a red bicycle', download: true },
				credentials: ctx.creds,
				continueOnFail: true,
				stopAfterMs: 1500,
			});
		} finally {
			logs.restore();
		}
		const url = fetched()[0];
		expect(url).toMatch(/\?X-Expires=\d+&X-Signature=/);
		// Stop let go of the file host (it trickles 64 KB at 5 bytes a second: a download left running
		// would hold the connection open for hours), by order, not by a clock.
		expect(result.status).toBe('canceled');
		const files = await fileRequestsClosed();
		for (const file of files) expect(file.closedAt).toBeDefined();
		expect(metadataOf(result)).toContain(url);
		expect(logText(logs.lines)).toContain(url);
		const shown = JSON.stringify({ items: result.items.map((i) => i.json), error: result.error && { m: result.error.message, d: result.error.description } });
		expect(shown).toContain(url);
		expect(everythingVisible(result, logs.lines)).not.toContain(API_KEY);
	}, 30_000);
});

describe("n8n's own storage fails while the run stops on the first failed item", () => {
	test('the stop-on-fail error lists the other finished tasks as completed at the gateway, file not stored (never failed)', async () => {
		ctx.sim.scenario('sora-2', { durationMs: 50, urlField: 'result_url' });
		const logs = captureLogs();
		let result;
		try {
			result = await runNode({
				parameters: { resource: 'video', operation: 'generate', modelId: rl('sora-2'), prompt: 'waves', videoRoute: 'compatibility', download: true, waiting: { pollIntervalSeconds: 0.1 } },
				credentials: ctx.creds,
				items: [{ json: {} }, { json: {} }, { json: {} }],
				binaryMode: 'filesystem',
				binaryFault: { code: 'ENOSPC' },
			});
		} finally {
			logs.restore();
		}
		expect(result.error.message).toMatch(/could not be stored: the disk of the n8n host is full \(ENOSPC\)\. Task task_\w+ completed at the gateway and was paid for/);
		const results = result.error.context.results;
		expect(results).toHaveLength(2);
		for (const other of results) {
			expect(other.state).toBe('notStored');
			expect(other.taskId).toMatch(/^task_/);
			expect(result.error.description).toContain(`task ${other.taskId} completed at the gateway (paid), file not stored: ${other.urls[0]}`);
		}
		expect(result.error.description).not.toMatch(/task \w+ failed/);
		// Each file fetched once: a full disk is not a network cut.
		expect(ctx.sim.requests.filter((r) => r.origin === 'files')).toHaveLength(3);
		expect(ctx.sim.requests.filter((r) => r.method === 'POST')).toHaveLength(3);
	}, 30_000);
});

// The relay builds a video's result_url from its own configured server address
// (`{server address}/v1/videos/{id}/content`), which need not be the Base URL pasted
// (docs/gateway-contract.md §10.2). The file is read from the same route under the Base URL, with
// the key; the key never goes to the other address; the item says which route delivered.
describe("a result URL on the relay's own server address", () => {
	const port = () => new URL(ctx.sim.mainUrl).port;
	const video = (extra = {}) => ({ resource: 'video', operation: 'generate', modelId: rl('sora-2'), prompt: 'waves', videoRoute: 'compatibility', download: true, ...extra });
	const ownRoute = (taskId, base = ctx.sim.mainUrl) => `${base}/v1/videos/${taskId}/content`;
	/** No request that carried the key went anywhere but the Base URL's host. */
	const keyStayed = (host) => expect(ctx.sim.requests.filter((r) => r.hasAuth && r.headers.host !== host)).toEqual([]);

	test.each([
		['another name of the gateway (localhost for 127.0.0.1)', () => `http://localhost:${port()}`],
		["the relay's default address, where nothing answers", () => 'http://127.0.0.1:9'],
	])('%s: the file comes from the Base URL content route, downloadedFrom says so', async (_name, address) => {
		ctx.sim.scenario('sora-2', { durationMs: 50, urlField: 'result_url', serverAddress: address() });
		const { result } = await node(video());
		const item = result.items[0];
		expect(item.json.error).toBeUndefined();
		expect(item.binary.data.mimeType).toBe('video/mp4');
		// The item's url is where the file was fetched from; the relay's dead link is kept beside it.
		expect(item.json.url).toBe(ownRoute(item.json.taskId));
		expect(item.json.urls).toEqual([ownRoute(item.json.taskId)]);
		expect(item.json.relayUrl).toBe(`${address()}/v1/videos/${item.json.taskId}/content`);
		expect(item.json.downloadedFrom).toBe(ownRoute(item.json.taskId));
		expect(ctx.sim.requests.filter((r) => r.path.endsWith('/content'))).toHaveLength(1);
		keyStayed(new URL(ctx.sim.mainUrl).host);
	}, 30_000);

	test('a reverse proxy prefix left out of the server address: the URL fails at the proxy, the prefixed route delivers', async () => {
		const http = require('node:http');
		const target = new URL(ctx.sim.mainUrl);
		// A proxy that serves the relay under /relay and answers anything else itself, as nginx would.
		const proxy = http.createServer((req, res) => {
			if (!req.url.startsWith('/relay/')) {
				res.writeHead(404, { 'Content-Type': 'text/html' });
				return res.end('<html><body>404 Not Found</body></html>');
			}
			const forward = http.request({ host: target.hostname, port: target.port, path: req.url.slice('/relay'.length), method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
				res.writeHead(answer.statusCode, answer.headers);
				answer.pipe(res);
			});
			req.pipe(forward);
		});
		await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
		const proxied = `http://127.0.0.1:${proxy.address().port}`;
		try {
			ctx.sim.scenario('sora-2', { durationMs: 50, urlField: 'result_url', serverAddress: proxied });
			const result = await runNode({
				parameters: { ...video(), waiting: { pollIntervalSeconds: 0.1 } },
				credentials: { ...ctx.creds, baseUrl: `${proxied}/relay/v1` },
				continueOnFail: true,
			});
			const item = result.items[0];
			expect(item.json.error).toBeUndefined();
			expect(item.binary.data.mimeType).toBe('video/mp4');
			expect(item.json.url).toBe(ownRoute(item.json.taskId, `${proxied}/relay`));
			expect(item.json.relayUrl).toBe(`${proxied}/v1/videos/${item.json.taskId}/content`);
			expect(item.json.downloadedFrom).toBe(ownRoute(item.json.taskId, `${proxied}/relay`));
		} finally {
			proxy.closeAllConnections();
			await new Promise((resolve) => proxy.close(resolve));
		}
	}, 30_000);

	test('both routes failing: the error names both and the relay setting, never "download again" from the same URL', async () => {
		ctx.sim.scenario('sora-2', { durationMs: 50, urlField: 'result_url', serverAddress: `http://localhost:${port()}` });
		ctx.sim.inject({ origin: 'main', path: /\/content$/, status: 404, body: { code: 'video_not_found', message: 'video content is not available for this task', data: null }, times: Infinity });
		const run = await node(video());
		const failed = failedItem(run);
		const text = `${failed.json.error}\n${failed.json.description}`;
		expect(failed.json.taskId).toMatch(/^task_/);
		expect(failed.json.url).toBe(`http://localhost:${port()}/v1/videos/${failed.json.taskId}/content`);
		expect(failed.json.error).toContain(`answered 404 for the result ${ownRoute(failed.json.taskId)}`);
		expect(text).toContain(`The task's result URL ${failed.json.url} names the relay's own server address`);
		expect(text).toMatch(/ask the gateway's operator to set the relay's server address/);
		expect(text).not.toMatch(/download its result again with Task → Download Result soon/);
		expect(failed.json.state).toBe('succeeded');
		keyStayed(new URL(ctx.sim.mainUrl).host);
		expect(everythingVisible(run.result, run.logs)).not.toContain(API_KEY);
	}, 30_000);

	test('Task → Download Result and the trigger read the same route', async () => {
		ctx.sim.scenario('sora-2', { durationMs: 0, urlField: 'result_url', serverAddress: `http://localhost:${port()}` });
		const id = await createTask(ctx.sim, { model: 'sora-2', path: '/v1/videos', extra: { seconds: '8' } });
		await sleep(50);
		const download = await runNode({ parameters: { resource: 'task', operation: 'downloadResult', taskId: id, queryRoute: 'video' }, credentials: ctx.creds });
		expect(download.error).toBeUndefined();
		expect(download.items[0].json.downloadedFrom).toBe(ownRoute(id));
		expect(download.items[0].json).toMatchObject({ url: ownRoute(id), relayUrl: `http://localhost:${port()}/v1/videos/${id}/content` });
		expect(download.items[0].binary.data.mimeType).toBe('video/mp4');
		const { result } = await pollTrigger({ parameters: { event: 'taskFinished', taskIds: id, queryRoute: 'video', download: true }, credentials: ctx.creds, workflowId: `relay-address-${id}` });
		const item = result[0][0];
		expect(item.json.downloadError).toBeUndefined();
		expect(item.json.downloadedFrom).toBe(ownRoute(id));
		expect(item.json).toMatchObject({ url: ownRoute(id), relayUrl: `http://localhost:${port()}/v1/videos/${id}/content` });
		expect(item.binary.data.mimeType).toBe('video/mp4');
		keyStayed(new URL(ctx.sim.mainUrl).host);
	}, 30_000);
});
