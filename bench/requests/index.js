'use strict';
// npm run bench:requests: what one gateway request costs this process through the package against
// a plain request through n8n's own helper, in the same run. N task reads through the node (Task →
// Check Once on N tasks that never finish: one GET each, and what the run asks besides) against N
// calls of the ExecuteContext's helpers.httpRequest to the same route of the same simulator. The
// simulator runs in a child process (./simulator.js), so the CPU is the client's alone; it counts
// the TCP connections it accepted (a client that reuses them opens fewer than one per request).
// Each side runs once to warm up, then ROUNDS times in turn; the figures are the medians, the
// ratios the median of each round's.
//   BENCH_REQUESTS=300 (reads per round), BENCH_ROUNDS=5
require('../../test/build-current').ensureCurrent();
require('../../test/harness/env');
const { forkSimulator } = require('../child');
const path = require('node:path');
const { runNode, executeContext } = require('../../test/harness');

const N = Number(process.env.BENCH_REQUESTS ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const API_KEY = 'sk-bench';
const DIST = path.resolve(__dirname, '../../dist');
const MODEL = 'veo-3.1-flash';

const { child, ask } = forkSimulator(path.join(__dirname, 'simulator.js'));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cpuMs = (start) => {
	const used = process.cpuUsage(start);
	return (used.user + used.system) / 1000;
};

/** One side once: reset the simulator, make the requests, read what it saw. */
async function measure(run) {
	await ask('reset');
	const ids = await ask('tasks', { n: N, apiKey: API_KEY, model: MODEL });
	const before = await ask('count');
	const start = process.cpuUsage();
	await run(ids);
	const cpu = cpuMs(start);
	const after = await ask('count');
	const requests = after.requests - before.requests;
	return {
		requests,
		connectionsPerRequest: (after.connections - before.connections) / requests,
		closePerRequest: (after.closeHeaders - before.closeHeaders) / requests,
		cpuMsPerRequest: cpu / requests,
	};
}

async function main() {
	const { mainUrl, altUrl } = await ask('start', { apiKey: API_KEY });
	const creds = { baseUrl: `${mainUrl}/v1`, altBaseUrl: altUrl, apiKey: API_KEY };
	const pkg = async (ids) => {
		const result = await runNode({
			parameters: { resource: 'task', operation: 'checkOnce', taskId: '={{ $json.taskId }}', queryRoute: 'video' },
			credentials: creds,
			items: ids.map((taskId) => ({ json: { taskId } })),
		});
		if (result.error || result.items.length !== ids.length || !result.items.every((i) => i.json.pending))
			throw new Error(`the node's run did not read every task: ${result.error?.message ?? result.items.length}`);
	};
	const { context } = executeContext({ credentials: creds });
	/** One read after another, each answered 200 (`status` reads a side's answer). */
	const oneByOne = (name, read, status) => async (ids) => {
		for (const id of ids) {
			const answered = status(await read(`${mainUrl}/v1/videos/${id}`, id));
			if (answered !== 200) throw new Error(`the ${name} read answered ${answered}`);
		}
	};
	const headers = { Authorization: `Bearer ${API_KEY}` };
	const plain = oneByOne(
		'plain',
		(url) => context.helpers.httpRequest({ method: 'GET', url, headers, json: true, returnFullResponse: true }),
		(r) => r.statusCode,
	);
	// The helper the HTTP Request node (V3) calls: n8n's legacy request.
	const legacy = oneByOne(
		'legacy',
		(uri) => context.helpers.request({ method: 'GET', uri, headers, json: true, resolveWithFullResponse: true }),
		(r) => r.statusCode,
	);
	// The package's transport alone (transport/request.ts gatewayRequest), without the node's run.
	const { gatewayRequest } = require(path.join(DIST, 'nodes/UnifiedAiGateway/transport/request.js'));
	const transport = oneByOne(
		"transport's",
		(_url, id) => gatewayRequest.call(context, { method: 'GET', path: `/v1/videos/${id}`, action: 'reading the task' }),
		(r) => r.status,
	);
	const sides = { pkg, transport, plain, legacy };
	const runs = Object.fromEntries(Object.keys(sides).map((side) => [side, []]));
	for (const side of Object.keys(sides)) await measure(sides[side]);
	for (let round = 0; round < ROUNDS; round++)
		for (const side of Object.keys(sides)) runs[side].push(await measure(sides[side]));
	const figure = (side, key) => median(runs[side].map((r) => r[key]));
	// Each round's sides ran one after another: their ratio cancels the machine's load of that moment.
	const ratio = (side) => median(runs[side].map((r, k) => r.cpuMsPerRequest / runs.plain[k].cpuMsPerRequest));
	const fixed = (n) => n.toFixed(3);
	await ask('close');
	console.log(
		[
			'bench-requests',
			`n=${N}`,
			`rounds=${ROUNDS}`,
			`requests_per_read=${fixed(figure('pkg', 'requests') / N)}`,
			`connections_per_request=${fixed(figure('pkg', 'connectionsPerRequest'))}`,
			`baseline_connections_per_request=${fixed(figure('plain', 'connectionsPerRequest'))}`,
			`legacy_connections_per_request=${fixed(figure('legacy', 'connectionsPerRequest'))}`,
			`connection_close_per_request=${fixed(figure('pkg', 'closePerRequest'))}`,
			`baseline_connection_close_per_request=${fixed(figure('plain', 'closePerRequest'))}`,
			`cpu_ms_per_request=${fixed(figure('pkg', 'cpuMsPerRequest'))}`,
			`transport_cpu_ms_per_request=${fixed(figure('transport', 'cpuMsPerRequest'))}`,
			`baseline_cpu_ms_per_request=${fixed(figure('plain', 'cpuMsPerRequest'))}`,
			`legacy_cpu_ms_per_request=${fixed(figure('legacy', 'cpuMsPerRequest'))}`,
			`cpu_over_baseline=${fixed(ratio('pkg'))}`,
			`transport_over_baseline=${fixed(ratio('transport'))}`,
		].join(' '),
	);
}

main().catch((error) => {
	console.error(error);
	child.kill();
	process.exitCode = 1;
});
