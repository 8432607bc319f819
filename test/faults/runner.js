'use strict';
// The fault matrix's shared part: every submit route as a node run, a log capture, and the
// one check every row makes (the key appears nowhere). submit.test.js (and poll rows) use it.
const { Container } = require('@n8n/di');
const { Logger } = require('@n8n/backend-common');
const { runNode, makeBinary } = require('../harness');
const { API_KEY } = require('../support');
const { pngFor } = require('../simulator/png');
const { silentWav } = require('../audio/wav');

const rl = (value) => ({ __rl: true, mode: 'id', value });
const image = (model) => ({ resource: 'image', operation: 'generate', modelId: rl(model), prompt: 'a red bicycle', download: false, waiting: { pollIntervalSeconds: 0.1 } });
const video = (model, extra = {}) => ({ resource: 'video', operation: 'generate', modelId: rl(model), prompt: 'waves', download: false, ...extra, waiting: { pollIntervalSeconds: 0.1, ...extra?.waiting } });

/**
 * Every route that sends a POST. `timeout` is the parameter change that makes the node give up
 * after 0.5–1 s (routes without a submit timeout setting have none: their rows are not run).
 */
const SUBMIT_ROUTES = [
	{ name: 'image sync', path: '/v1/images/generations', billed: true, parameters: image('gpt-image-2'), done: (j) => /^http/.test(j.url) },
	{ name: 'image async', path: '/v1/images/generations', billed: true, parameters: image('gpt-image-2-async'), done: (j) => /^http/.test(j.url) && j.taskId },
	{ name: 'nano-banana', path: '/v1/images/generations', billed: true, parameters: image('nano-banana'), done: (j) => /^http/.test(j.url) && j.taskId },
	{ name: 'alt host', path: '/v1/images/generations', origin: 'alt', billed: true, parameters: image('gemini-2.5-flash-image'), done: (j) => /^http/.test(j.url) && j.taskId },
	{ name: 'video unified', path: '/v1/video/generations', billed: true, parameters: video('sora-2'), timeout: { options: { submitTimeoutSeconds: 0.5 } }, done: (j) => j.status === 'completed' },
	{ name: 'video compatibility', path: '/v1/videos', billed: true, parameters: video('sora-2', { videoRoute: 'compatibility' }), timeout: { options: { submitTimeoutSeconds: 0.5 } }, done: (j) => j.status === 'completed' },
	{
		name: 'grok multipart', path: '/v1/videos', billed: true,
		parameters: video('grok-imagine-video-1.5', { videoRoute: 'multipart', videoSeconds: '6', videoSize: '1280x720' }),
		timeout: { options: { submitTimeoutSeconds: 0.5 } }, done: (j) => j.status === 'completed',
	},
	{
		name: 'chat', path: '/v1/chat/completions', billed: true,
		parameters: { resource: 'text', operation: 'message', modelId: rl('gpt-5.6-sol'), messages: { values: [{ role: 'user', content: 'hello' }] } },
		timeout: { options: { timeoutSeconds: 1 } }, done: (j) => typeof j.text === 'string' && j.text !== '',
	},
	// The calls answered at once that issue 56 added: each billed, never repeated when it may have been.
	{
		name: 'speech', path: '/v1/audio/speech', billed: true,
		parameters: { resource: 'audio', operation: 'speech', modelId: rl('tts-1'), input: 'Welcome to our spring collection.' },
		done: (j) => j.mimeType === 'audio/mpeg' && j.bytes > 0,
	},
	{
		name: 'transcribe', path: '/v1/audio/transcriptions', billed: true,
		parameters: { resource: 'audio', operation: 'transcribe', modelId: rl('whisper-1') },
		items: async () => [{ json: {}, binary: { data: await makeBinary(silentWav(), 'voice.wav', 'audio/wav') } }],
		done: (j) => typeof j.text === 'string' && j.text !== '',
	},
	{
		name: 'image analyze', path: '/v1/chat/completions', billed: true,
		parameters: { resource: 'image', operation: 'analyze', modelId: rl('gpt-5.6-sol') },
		items: async () => [{ json: {}, binary: { data: await makeBinary(pngFor('photo'), 'photo.png', 'image/png') } }],
		done: (j) => typeof j.text === 'string' && j.text !== '',
	},
	{
		name: 'upload', path: '/v1/uploads/images', billed: false,
		parameters: { resource: 'file', operation: 'uploadImage', binaryPropertyName: 'data' },
		items: async () => [{ json: {}, binary: { data: await makeBinary(pngFor('ref'), 'ref.png', 'image/png') } }],
		done: (j) => /^http/.test(j.url),
	},
];

/** Every log line n8n-core and our node write during a run, whatever the level. */
function captureLogs() {
	const lines = [];
	const original = Container.get(Logger);
	const logger = {};
	for (const level of ['error', 'warn', 'info', 'debug', 'verbose']) logger[level] = (message, meta) => lines.push(`${message} ${JSON.stringify(meta ?? {})}`);
	logger.scoped = () => logger;
	Container.set(Logger, logger);
	return { lines, restore: () => Container.set(Logger, original) };
}

/** One node run of a route, Continue On Fail on, with its logs. */
async function runRoute(route, credentials, parameters = {}) {
	const logs = captureLogs();
	try {
		const items = route.items ? await route.items() : [{ json: {} }];
		const result = await runNode({ parameters: { ...route.parameters, ...parameters }, credentials, items, continueOnFail: true });
		return { result, logs: logs.lines };
	} finally {
		logs.restore();
	}
}

/** The key (in any form) in no output, error, log line, nor in any request to the files origin. */
function expectNoKey({ result, logs }, sim, key = API_KEY) {
	const visible = JSON.stringify({ items: result.items.map((i) => i.json), error: result.error && { message: result.error.message, description: result.error.description } });
	for (const text of [visible, ...logs]) expect(text).not.toContain(key.trim());
	expect(sim.requests.filter((r) => r.origin === 'files' && r.hasAuth)).toEqual([]);
}

module.exports = { SUBMIT_ROUTES, captureLogs, runRoute, expectNoKey };
