'use strict';
/*
 * Every example workflow (and the e2e's image workflow) created through n8n's REST API with the
 * gateway credential, opened in its own tab: every node on the canvas, no error toast, no
 * uncaught exception; each of our nodes opens with its parameters, its credential, no parameter
 * issues and the saved size/resolution shown.
 */

const fs = require('fs');
const path = require('path');

const editor = require('../editor');
const { check, waitUntil, list, sleep } = require('../session');

function workflowFiles(repo) {
	const files = [path.join(repo, 'test', 'e2e', 'workflows', 'image-generate.json')].filter((f) => fs.existsSync(f));
	const examples = path.join(repo, 'examples');
	if (fs.existsSync(examples)) {
		files.push(
			...fs
				.readdirSync(examples)
				.filter((f) => f.endsWith('.json'))
				.sort()
				.map((f) => path.join(examples, f)),
		);
	}
	return files;
}

async function checkNode(tab, n, cred) {
	await editor.openNode(tab, n.name);
	const params = editor.nodeParameters(tab);
	await params.waitFor({ timeout: 10000 }).catch(() => {
		throw new Error(`node "${n.name}" (${n.type}) opens without parameters (not installed?)`);
	});
	const issues = params.locator('[data-test-id="parameter-item"]').filter({ has: tab.locator('[data-test-id="parameter-issues"]:visible') });
	if (await issues.count()) {
		const at = (await issues.allInnerTexts()).map((x) => x.split('\n')[0]);
		throw new Error(`node "${n.name}" shows parameter issues at: ${at.join(', ')}`);
	}
	if (n.credentials && n.credentials.unifiedAiGatewayApi) {
		const chosen = await editor.nodeCredentialName(tab);
		check(chosen === cred.name, `node "${n.name}" does not show its credential "${cred.name}" (shows "${chosen}")`);
	}
	for (const key of ['size', 'resolution']) {
		const value = n.parameters && n.parameters[key];
		if (typeof value !== 'string' || value.startsWith('=')) continue;
		const input = editor.parameterInput(tab, key).locator('input').first();
		if (!(await input.count())) continue;
		const shownValue = await input.inputValue();
		check(shownValue.toLowerCase().startsWith(value.toLowerCase()), `node "${n.name}": ${key} is "${value}" in the JSON but the form shows "${shownValue}"`);
	}
	await editor.closeNode(tab);
}

async function openImported(env, file, screenshotIt) {
	const { wf, id, ours, cred } = await env.createWorkflowFromFile(file);
	const tab = await env.newTab();
	const openedAt = Date.now();
	try {
		await editor.openWorkflow(tab, env.baseUrl, id);
		const expectedNames = wf.nodes.filter((n) => !/stickyNote$/.test(n.type)).map((n) => n.name);
		const names = await waitUntil(async () => {
			const n = await editor.canvasNodeNames(tab);
			return expectedNames.every((x) => n.includes(x)) ? n : false;
		}, `the canvas does not show every node (expected ${list(expectedNames)})`);
		check(names.length === expectedNames.length, `the canvas shows ${list(names)}, expected ${list(expectedNames)}`);
		const toasts = await editor.errorToasts(tab);
		check(!toasts.length, `error notifications: ${toasts.join(' | ')}`);
		if (screenshotIt) {
			await sleep(500); // let the canvas finish fitting the view
			await env.shot(tab, 'imported-workflow.png');
		}
		for (const n of ours) await checkNode(tab, n, cred);
		const errors = env.pageErrors.filter((x) => x.at >= openedAt);
		check(!errors.length, `uncaught errors in the page: ${errors.map((x) => x.message).join(' | ')}`);
	} catch (e) {
		await env.session.capture(`imported ${path.basename(file)}`, tab);
		throw e;
	} finally {
		await tab.close();
	}
}

async function run(session, env) {
	const files = workflowFiles(env.repo);
	const shotOf = files.find((f) => /marketing/.test(f)) || files[0];
	for (const file of files) {
		await session.test(`imported workflow ${path.relative(env.repo, file)} opens without errors`, () => openImported(env, file, file === shotOf), [env.OPEN]);
	}
}

module.exports = { run };
