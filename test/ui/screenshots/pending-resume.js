'use strict';
/*
 * A pending item and its resume, run in the editor: Video → Generate (seedance-2.0) waits less than the
 * task takes and returns the task as a pending item (On Timeout: Return Pending Item); Task →
 * Wait for Completion after it resumes from that item's task ID without a second submit.
 */

const editor = require('../editor');
const { check } = require('../session');
const { chain } = require('./workflows');

const VIDEO = 'Generate a video';
const RESUME = 'Wait for the video';
const NAME = 'a pending video item (Max Wait passed) resumes with Task → Wait for Completion, one submit';

function workflow(packageName, cred) {
	return chain('Pending item and resume (ui)', packageName, cred, [
		{
			name: VIDEO,
			parameters: {
				resource: 'video',
				operation: 'generate',
				modelId: { __rl: true, mode: 'id', value: 'seedance-2.0' },
				prompt: 'A paper boat drifting down a rainy street, close-up, slow camera pan',
				waiting: { maxWaitMinutes: 0.05, pollIntervalSeconds: 1, onTimeout: 'pending' },
				download: false,
			},
		},
		{
			name: RESUME,
			parameters: { resource: 'task', operation: 'waitForCompletion', taskId: '={{ $json.taskId }}', waiting: { pollIntervalSeconds: 1 }, download: false },
		},
	]);
}

async function run(session, env) {
	await session.test(
		NAME,
		async () => {
			const id = await env.createWorkflow(workflow(env.packageName, await env.credential()));
			// Longer than the 3 s the video node waits, short enough for the resume.
			env.sim.scenario('seedance-2.0', { durationMs: 9000 });
			const submits = () => env.sim.find('POST', '/v1/videos').length + env.sim.find('POST', '/v1/video/generations').length;
			const before = submits();
			const tab = await env.newTab();
			try {
				await editor.openWorkflow(tab, env.baseUrl, id);
				await editor.runWorkflow(tab, 60000);
				check(submits() === before + 1, `the simulator received ${submits() - before} video submits, expected 1`);
				await editor.openNode(tab, VIDEO);
				const pending = await editor.outputJson(tab, (t) => /"pending": true/.test(t), 'the video node shows no pending item');
				const taskId = (/"taskId": "([^"]+)"/.exec(pending) || [])[1];
				check(taskId, `the pending item has no taskId: ${pending.slice(0, 400)}`);
				await env.shot(editor.ndv(tab), 'video-pending-item.png');
				await editor.closeNode(tab);
				await editor.openNode(tab, RESUME);
				const done = await editor.outputJson(tab, (t) => t.includes(taskId), `the resume shows no task ${taskId}`);
				check(/"state": "succeeded"/.test(done), `the resumed task is not succeeded: ${done.slice(0, 600)}`);
				check(/"url": "http:\/\/127\.0\.0\.1:\d+\/files\/[^"]+"/.test(done), `the resumed task shows no result URL: ${done.slice(0, 600)}`);
				await env.shot(editor.ndv(tab), 'video-pending-resumed.png');
			} catch (e) {
				await env.session.capture('pending resume', tab);
				throw e;
			} finally {
				env.sim.scenario('seedance-2.0', null);
				await tab.close();
			}
		},
		[env.OPEN],
	);
}

module.exports = { run };
