'use strict';
// A runner calls a published workflow's webhook only once n8n has registered it (test/n8n/rest.js
// waitForWebhooks), asked through n8n's CORS pre-flight, which runs nothing. Here an n8n stand-in
// answers OPTIONS /webhook/<path> as n8n does (204, Access-Control-Allow-Methods listing what is
// registered on that path) and registers the webhook only after a few asks; a POST never comes.
const http = require('node:http');

const { waitForWebhooks, webhooksOf } = require('./n8n/rest');

async function standIn(registerAfter) {
	const asked = [];
	const server = http.createServer((req, res) => {
		asked.push(`${req.method} ${req.url} origin=${req.headers.origin ? 'yes' : 'no'}`);
		const registered = asked.length > registerAfter && req.url === '/webhook/stop-keeps-ids' ? ['POST'] : [];
		res.writeHead(req.method === 'OPTIONS' ? 204 : 404, { 'Access-Control-Allow-Methods': ['OPTIONS', ...registered].join(', ') });
		res.end();
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { baseUrl: `http://127.0.0.1:${server.address().port}`, asked, close: () => new Promise((resolve) => server.close(resolve)) };
}

test('waits, by the pre-flight alone, until n8n lists the webhook\'s method', async () => {
	const n8n = await standIn(3);
	try {
		await waitForWebhooks(n8n.baseUrl, [{ path: 'stop-keeps-ids', method: 'POST' }], 10_000);
		expect(n8n.asked).toEqual(Array(4).fill('OPTIONS /webhook/stop-keeps-ids origin=yes'));
	} finally {
		await n8n.close();
	}
});

test('a webhook that never comes fails naming it and what n8n answered', async () => {
	const n8n = await standIn(Infinity);
	try {
		await expect(waitForWebhooks(n8n.baseUrl, ['stop-keeps-ids'], 600)).rejects.toThrow(
			'n8n did not register the webhook "POST stop-keeps-ids" within 1 s of being asked (OPTIONS /webhook/stop-keeps-ids answered 204, methods registered there: none)',
		);
		expect(n8n.asked.every((line) => line.startsWith('OPTIONS '))).toBe(true);
	} finally {
		await n8n.close();
	}
});

test("the webhooks of a workflow are its enabled Webhook nodes' paths and methods", () => {
	const node = (name, parameters, extra = {}) => ({ name, type: 'n8n-nodes-base.webhook', parameters, ...extra });
	expect(
		webhooksOf({
			nodes: [node('A', { path: 'a', httpMethod: 'POST' }), node('B', { path: 'b' }), node('C', { path: 'c' }, { disabled: true }), { name: 'D', type: 'n8n-nodes-base.set', parameters: { path: 'd' } }],
		}),
	).toEqual([
		{ path: 'a', method: 'POST' },
		{ path: 'b', method: 'GET' },
	]);
});
