'use strict';
/*
 * What the codex and the output schemas give a user in the editor: the nodes panel finds the node
 * by the words people search for today (the codex's search aliases: "seedance", "veo", "video"; the
 * codex declares no "AI" category, which n8n reserves for its own AI nodes), and a node placed after a
 * not-yet-run Video → Generate offers that node's output fields (its schema preview, served from
 * the package's __schema__ files) for mapping before anything is paid for.
 */

const editor = require('../editor');
const { check } = require('../session');
const { chain } = require('./workflows');

const VIDEO = 'Generate a video';
/** Words of today a user types into the nodes panel; each must list the node (codex alias). */
const SEARCH_WORDS = ['seedance', 'veo', 'video'];
const NEXT = 'Use the video';

function workflow(packageName, cred) {
	const wf = chain('Schema preview (ui)', packageName, cred, [
		{
			name: VIDEO,
			parameters: { resource: 'video', operation: 'generate', modelId: { __rl: true, mode: 'id', value: 'seedance-2.0' }, prompt: 'A paper boat on a rainy street' },
		},
	]);
	wf.nodes.push({ id: 'c0000000-0000-4000-8000-0000000000a1', name: NEXT, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [520, 0], parameters: {} });
	wf.connections[VIDEO] = { main: [[{ node: NEXT, type: 'main', index: 0 }]] };
	return wf;
}

async function run(session, env) {
	await session.test(
		`the nodes panel finds Unified AI Gateway by ${SEARCH_WORDS.map((w) => `"${w}"`).join(', ')} (codex search aliases)`,
		async () => {
			// After a trigger, as a user adds the next step: the creator lists action nodes.
			const id = await env.createWorkflow(chain('Nodes panel search (ui)', env.packageName, await env.credential(), []));
			const tab = await env.newTab();
			try {
				await editor.openWorkflow(tab, env.baseUrl, id);
				for (const word of SEARCH_WORDS) {
					const names = await editor.searchNodeCreator(tab, word, 'Unified AI Gateway');
					check(names.includes('Unified AI Gateway'), `searching "${word}" lists: ${names.join(', ') || 'nothing'}`);
					if (word === SEARCH_WORDS[0]) await env.shot(editor.nodeCreator(tab), `nodes-panel-search-${word}.png`);
				}
			} catch (e) {
				await env.session.capture('nodes panel search', tab);
				throw e;
			} finally {
				await tab.close();
			}
		},
		[env.OPEN],
	);
	await session.test(
		'a not-yet-run Video → Generate offers its output fields for mapping (output schema)',
		async () => {
			const id = await env.createWorkflow(workflow(env.packageName, await env.credential()));
			const submits = () => env.sim.find('POST', '/v1/videos').length + env.sim.find('POST', '/v1/video/generations').length;
			const before = submits();
			const tab = await env.newTab();
			try {
				await editor.openWorkflow(tab, env.baseUrl, id);
				await editor.openNode(tab, NEXT);
				const inView = ['taskId', 'url', 'queryRoute', 'estimatedCost'];
				const top = await editor.inputSchemaFields(tab, inView);
				for (const field of inView) check(top.includes(field), `the input panel offers no "${field}" before a run; it shows: ${top.join(', ')}`);
				await env.shot(editor.ndv(tab), 'schema-preview-before-run.png');
				// Further down: the pending item's fields, and the first item's spend summary.
				const all = await editor.inputSchemaFields(tab, [...inView, 'pending', 'message', 'spendSummary']);
				for (const field of ['pending', 'message', 'spendSummary']) check(all.includes(field), `the input panel offers no "${field}"; it shows: ${all.join(', ')}`);
				check(submits() === before, 'something was submitted: the preview must not run the node');
			} catch (e) {
				await env.session.capture('schema preview', tab);
				throw e;
			} finally {
				await tab.close();
			}
		},
		[env.OPEN],
	);
}

module.exports = { run };
