'use strict';
// Numbers and prompts from expressions are untrusted: wrong type, empty, NaN, negative or absurd
// values are refused with an error naming the field and the value, before anything is sent.
const { runNode, pollTrigger } = require('./harness');
const { useSimulator, taskWaitParameters } = require('./support');

const ctx = useSimulator({ scenario: { durationMs: 300 } });
const rl = (value) => ({ __rl: true, mode: 'id', value });

const video = (extra = {}) => ({ resource: 'video', operation: 'generate', modelId: rl('sora-2'), prompt: '={{ $json.prompt }}', ...extra, waiting: { pollIntervalSeconds: 0.1, ...extra?.waiting } });
const image = (extra = {}) => ({ resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: '={{ $json.prompt }}', ...extra, waiting: { pollIntervalSeconds: 0.1, ...extra?.waiting } });
const wait = taskWaitParameters();
const chat = (options) => ({ resource: 'text', operation: 'message', modelId: rl('gpt-5.6-sol'), messages: { values: [{ role: 'user', content: 'Hi' }] }, options });

async function refused(parameters, json, pattern) {
	const result = await runNode({ parameters, credentials: ctx.creds, items: [{ json: { prompt: 'a red fox', taskId: 'task_1', ...json } }] });
	expect(result.error?.message).toMatch(pattern);
	expect(ctx.sim.requests).toHaveLength(0);
	return result.error;
}

describe('numbers from expressions are refused before anything is sent', () => {
	test.each([
		['Generate: Max Wait from a missing column', video({ waiting: { maxWaitMinutes: '={{ $json.maxWait }}' } }), {}, /^Max Wait \(Minutes\): empty \(the field or its expression gave no value\); it takes a number from 0.005 to 1440 minutes$/],
		['Generate: Max Wait as text', video({ waiting: { maxWaitMinutes: '={{ $json.maxWait }}' } }), { maxWait: 'ten' }, /^Max Wait \(Minutes\): "ten" is not a number/],
		['Generate: Max Wait -5', video({ waiting: { maxWaitMinutes: -5 } }), {}, /^Max Wait \(Minutes\): -5 is out of range; it takes a number from 0.005 to 1440 minutes$/],
		['Generate: Max Wait 0', video({ waiting: { maxWaitMinutes: 0 } }), {}, /^Max Wait \(Minutes\): 0 is out of range/],
		['Generate: Poll Interval 1e9', video({ waiting: { pollIntervalSeconds: 1e9 } }), {}, /^Poll Interval \(Seconds\): 1000000000 is out of range; it takes a number from 0.05 to 600 seconds, or 0 for the gateway's advised interval$/],
		['Generate: Poll Interval NaN', video({ waiting: { pollIntervalSeconds: '={{ NaN }}' } }), {}, /^Poll Interval \(Seconds\): NaN is not a number/],
		['Generate: Concurrency as text', video({ options: { concurrency: '={{ $json.c }}' } }), { c: 'many' }, /^Concurrency: "many" is not a number; it takes a whole number from 1 to 50$/],
		['Generate: Concurrency 2.5', video({ options: { concurrency: 2.5 } }), {}, /^Concurrency: 2.5 is not a whole number/],
		['Generate: Submit Timeout as an object', video({ options: { submitTimeoutSeconds: '={{ $json.t }}' } }), { t: { s: 1 } }, /^Submit Timeout \(Seconds\): \{"s":1\} is an object, not a number/],
		['Task → Wait: Max Wait from a missing column', wait({ waiting: { maxWaitMinutes: '={{ $json.maxWait }}' } }), {}, /^Max Wait \(Minutes\): empty .* or 0 for each task's route window$/],
		['Task → Wait: Max Wait as text', wait({ waiting: { maxWaitMinutes: '={{ $json.maxWait }}' } }), { maxWait: 'soon' }, /^Max Wait \(Minutes\): "soon" is not a number/],
		['Task → Wait: Max Wait -5', wait({ waiting: { maxWaitMinutes: -5 } }), {}, /^Max Wait \(Minutes\): -5 is out of range/],
		['Task → Wait: Concurrency as text', wait({ options: { concurrency: 'x' } }), {}, /^Concurrency: "x" is not a number/],
		['Image: Number of Images as text (registry field)', image({ n: '={{ $json.n }}' }), { n: 'many' }, /Number of Images \(n\) "many" is out of range/],
		['Image: Number of Images as an object (registry field)', image({ n: '={{ $json.n }}' }), { n: { a: 2 } }, /Number of Images \(n\) \{"a":2\} is out of range/],
		['Image: Spend cap as text', image({ spendGuard: { maxRunCostUsd: '={{ $json.cap }}' } }), { cap: 'five dollars' }, /^Max Estimated Cost per Run \(USD\): "five dollars" is not a number/],
		['Text: Temperature as text', chat({ temperature: '={{ $json.t }}' }), { t: 'warm' }, /^Temperature: "warm" is not a number; it takes a number from 0 to 2$/],
		['Text: Maximum Number of Tokens empty', chat({ maxTokens: '={{ $json.none }}' }), {}, /^Maximum Number of Tokens: empty/],
	])('%s', async (_name, parameters, json, pattern) => {
		await refused(parameters, json, pattern);
	});

	test('a number given as text is taken (n8n fields hand over what the expression gives)', async () => {
		const result = await runNode({ parameters: video({ waiting: { maxWaitMinutes: '={{ "1" }}' }, options: { concurrency: '={{ "2" }}' } }), credentials: ctx.creds, items: [{ json: { prompt: 'a boat' } }] });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.state).toBe('succeeded');
	});

	test('Task → Wait: Max Wait 0 still means the route window', async () => {
		const result = await runNode({ parameters: wait({ waiting: { maxWaitMinutes: 0 } }), credentials: ctx.creds, items: [{ json: { taskId: 'task_none' } }] });
		expect(result.error?.message ?? '').not.toMatch(/Max Wait/);
	});

	test('the trigger: Timeout (Minutes) as text and Threshold empty are refused before any request', async () => {
		const base = { credentials: ctx.creds, mode: 'manual' };
		await expect(pollTrigger({ ...base, parameters: { event: 'taskFinished', taskIds: 'task_1', queryRoute: 'generic', timeoutMinutes: 'later' }, workflowId: 'expr-1' })).rejects.toThrow(/^Timeout \(Minutes\): "later" is not a number/);
		await expect(pollTrigger({ ...base, parameters: { event: 'balanceBelow', balanceType: 'token', threshold: '' }, workflowId: 'expr-2' })).rejects.toThrow(/^Threshold: empty/);
		expect(ctx.sim.requests).toHaveLength(0);
	});
});

describe('prompts from expressions', () => {
	test.each([
		['an object', { a: 1 }, /^Prompt is an object \(\{"a":1\}\), not text/],
		['a list', ['cat', 'dog'], /^Prompt is a list \(\["cat","dog"\]\), not text/],
		['only zero-width spaces', '\u200b\u200b\ufeff', /^Prompt holds only invisible characters/],
		['nothing', undefined, /^Prompt is empty/],
	])('Image and Video: a prompt that is %s is refused, nothing billed', async (_name, prompt, pattern) => {
		await refused(image(), { prompt }, pattern);
		await refused(video(), { prompt }, pattern);
	});

	test('a number as the prompt is sent as its digits', async () => {
		const result = await runNode({ parameters: image({ download: false }), credentials: ctx.creds, items: [{ json: { prompt: 42 } }] });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.find('POST', '/v1/images/generations')[0].body.prompt).toBe('42');
	});
});

describe('models and switches from expressions are checked for their type', () => {
	test.each([
		['an object', { id: 'sora-2' }, /^Model is an object, not a model ID: map the ID itself/],
		['a list', ['sora-2'], /^Model is a list, not a model ID/],
		['a boolean', true, /^Model is a boolean, not a model ID/],
	])('a Model that is %s is refused before anything is sent (never "[object Object]")', async (_name, model, pattern) => {
		await refused(video({ modelId: rl('={{ $json.model }}') }), { model }, pattern);
		await refused(image({ modelId: rl('={{ $json.model }}') }), { model }, pattern);
	});

	test.each([
		['the text "false"', 'false', false],
		['the text "TRUE "', 'TRUE ', true],
		['false', false, false],
	])('Download Files from an expression giving %s', async (_name, dl, downloads) => {
		const result = await runNode({ parameters: image({ download: '={{ $json.dl }}' }), credentials: ctx.creds, items: [{ json: { prompt: 'a fox', dl } }] });
		expect(result.error).toBeUndefined();
		expect(Boolean(result.items[0].binary)).toBe(downloads);
		expect(ctx.sim.requests.filter((r) => r.origin === 'files')).toHaveLength(downloads ? 1 : 0);
	});

	test.each([
		['Download Files', image({ download: '={{ $json.v }}' }), { v: 'no' }, /^Download Files: "no" is a string, not a switch; it takes true or false$/],
		['Download Files', image({ download: '={{ $json.v }}' }), {}, /^Download Files: empty is no value, not a switch/],
		['Wait for Result', video({ waitForCompletion: '={{ $json.v }}' }), { v: 1 }, /^Wait for Result: 1 is a number, not a switch/],
		['Task → Wait: Download Files', wait({ download: '={{ $json.v }}' }), { v: { yes: true } }, /^Download Files: \{"yes":true\} is an object, not a switch/],
	])('%s that is not a switch is refused before anything is sent', async (_name, parameters, json, pattern) => {
		await refused(parameters, json, pattern);
	});
});
