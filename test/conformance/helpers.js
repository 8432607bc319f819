'use strict';
// What the conformance rows run: the node through the harness against the simulator, either on
// the simulator's own answers or on one answer the spec shows literally (served with inject).
const { runNode, makeBinary } = require('../harness');
const { pngFor } = require('../simulator/png');

const rl = (value) => ({ __rl: true, mode: 'id', value });
const QUERY_PATHS = {
	generic: (id) => `/v1/tasks/${id}`,
	image: (id) => `/v1/images/generations/${id}`,
	video: (id) => `/v1/videos/${id}`,
	alt: (id) => `/v1/tasks/${id}`,
};

function helpers(ctx) {
	const run = async (parameters, options = {}) => await runNode({ parameters, credentials: ctx.creds, ...options });

	/** Task → Get on `route`, answered once with exactly `body`: the node's reading of that shape. */
	async function readAs(route, body, id = 'task_conformance0000000000000000000000') {
		ctx.sim.inject({ method: 'GET', path: QUERY_PATHS[route](id), origin: route === 'alt' ? 'alt' : 'main', status: 200, body });
		const result = await run({ resource: 'task', operation: 'get', taskId: id, queryRoute: route });
		if (result.error) throw new Error(`Task → Get failed: ${result.error.message}`);
		return result.items[0].json;
	}

	const image = (model, extra = {}, options) =>
		run({ resource: 'image', operation: 'generate', modelId: rl(model), prompt: 'a red fox', download: false, ...extra, waiting: { pollIntervalSeconds: 0.05, ...extra?.waiting } }, options);

	const edit = (model, extra = {}, options) =>
		run({ resource: 'image', operation: 'edit', modelId: rl(model), prompt: 'make it blue', download: false, referenceUrls: 'https://x.test/a.png', ...extra, waiting: { pollIntervalSeconds: 0.05, ...extra?.waiting } }, options);

	const video = (model, extra = {}, options) =>
		run({ resource: 'video', operation: 'generate', modelId: rl(model), prompt: 'a paper boat', download: false, ...extra, waiting: { pollIntervalSeconds: 0.05, ...extra?.waiting } }, options);

	/** The body of the one POST to `path` (JSON or multipart text fields). */
	function sent(path, origin = 'main') {
		const posts = ctx.sim.find('POST', path, origin);
		if (posts.length !== 1) throw new Error(`expected one POST ${path}, saw ${posts.length}`);
		const post = posts[0];
		if (post.parts) return Object.fromEntries(post.parts.filter((p) => p.value !== undefined).map((p) => [p.name, p.value]));
		return post.body;
	}

	/** A refusal before sending: the error names what it must, and the gateway saw nothing. */
	function refused(result, message) {
		if (!result.error) throw new Error(`expected a refusal matching ${message}, the run succeeded`);
		expect(result.error.message).toMatch(message);
		expect(ctx.sim.requests).toHaveLength(0);
	}

	function ok(result) {
		if (result.error) throw new Error(`node failed: ${result.error.message} | ${result.error.description}`);
		return result.items.map((i) => i.json);
	}

	async function binaryItem(buffer = pngFor('conformance'), name = 'ref.png', mime = 'image/png', property = 'data') {
		return [{ json: {}, binary: { [property]: await makeBinary(buffer, name, mime) } }];
	}

	return { run, readAs, image, edit, video, sent, refused, ok, binaryItem };
}

module.exports = { helpers, rl };
