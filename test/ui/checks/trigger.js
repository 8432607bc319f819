'use strict';
/*
 * The Unified AI Gateway Trigger in manual mode: "Fetch Test Event" on a finished nano-banana
 * task made on the simulator shows that one task (and n8n queried it on the image route).
 */

const editor = require('../editor');
const { check, waitUntil } = require('../session');

const NAME = 'the trigger in manual mode: "Fetch Test Event" shows a finished nano-banana task';

/** A finished nano-banana task on the simulator, made directly (not through n8n). */
async function finishedImageTask(env) {
	env.sim.scenario('nano-banana', { durationMs: 300 }); // tasks snapshot their scenario when made
	const made = await env.simJson('POST', '/v1/images/generations', { model: 'nano-banana', prompt: 'x' }).finally(() => env.sim.scenario('nano-banana', null));
	const taskId = made.json.data && made.json.data.task_id;
	check(taskId, `the simulator made no nano-banana task: ${made.status} ${JSON.stringify(made.json)}`);
	// Wait on the generic route; the trigger reads the image route, so every GET there is n8n's.
	const statusOf = (answer) => (answer.data ? answer.data.status : answer.status); // the simulator serves both shapes
	await waitUntil(async () => statusOf((await env.simJson('GET', `/v1/tasks/${taskId}`)).json) === 'completed', `task ${taskId} did not complete`);
	return taskId;
}

async function fetchTestEvent(env) {
	const taskId = await finishedImageTask(env);
	const cred = await env.credential();
	const trigger = {
		id: 'a1b2c3d4-0000-4000-8000-000000000001',
		name: 'Unified AI Gateway Trigger',
		type: `${env.packageName}.unifiedAiGatewayTrigger`,
		typeVersion: 1,
		position: [0, 0],
		parameters: { event: 'taskFinished', taskIds: taskId, queryRoute: 'image' },
		credentials: { unifiedAiGatewayApi: { id: cred.id, name: cred.name } },
	};
	const id = await env.createWorkflow({ name: 'Trigger test event (ui)', nodes: [trigger], connections: {} });
	const tab = await env.newTab();
	try {
		await editor.openWorkflow(tab, env.baseUrl, id);
		await editor.openNode(tab, trigger.name);
		const label = await editor.runButtonLabel(tab);
		check(/Fetch Test Event/i.test(label), `the trigger's run button says "${label}", not "Fetch Test Event"`);
		const output = await editor.runOpenNode(tab);
		const count = await editor.outputItemCount(tab);
		check(count === 1, `the output panel says ${count} items, expected 1`);
		// The panel renders a long item in parts (on a busy machine, the first part alone for a
		// while): wait until the task and its URL are both shown, then check the rest.
		const URL_SHOWN = /"url": "http:\/\/127\.0\.0\.1:\d+\/files\/[^"]+\.png"/;
		const shown = await editor.outputJson(tab, (text) => text.includes(`"taskId": "${taskId}"`) && URL_SHOWN.test(text), `the output panel does not show task ${taskId} with its result URL`);
		for (const want of [/"state": "succeeded"/, /"status": "(completed|succeeded)"/, URL_SHOWN]) {
			check(want.test(shown), `the output does not show ${want}; it shows: ${shown.slice(0, 600)}`);
		}
		const queryPath = `/v1/images/generations/${taskId}`;
		check(env.sim.count('GET', queryPath) >= 1, `the simulator recorded no GET ${queryPath} from n8n`);
		await env.shot(editor.ndv(tab), 'trigger-fetch-test-event.png');
		return output;
	} catch (e) {
		await env.session.capture('trigger tab', tab);
		throw e;
	} finally {
		await tab.close();
	}
}

async function run(session, env) {
	await session.test(NAME, () => fetchTestEvent(env), [env.OPEN]);
}

module.exports = { run };
