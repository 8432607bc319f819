'use strict';
/*
 * The credential made from the node panel (the editor's own flow for a new user): its form, the
 * connection test with a wrong key then the right one (the simulator records the GET
 * /v1/models of each), then the model list loaded through it.
 */

const editor = require('../editor');
const { check, waitUntil, list } = require('../session');

const CREDENTIAL_DISPLAY_NAME = 'Unified AI Gateway API';
const WRONG_KEY = 'sk-sim-wrong-key';

const OPEN = `a new credential from the node opens the ${CREDENTIAL_DISPLAY_NAME} form`;
const WRONG = 'credential test with a wrong key: n8n shows the gateway refusing it';
const OK = 'credential test with the right key: "Connection tested successfully" (GET /v1/models)';
const LIST = 'model list ("From list") loads the gateway\'s image models';

async function openForm(page, env) {
	const modal = await editor.openNewCredential(page, CREDENTIAL_DISPLAY_NAME);
	const header = await modal.locator('header').innerText();
	check(header.includes(CREDENTIAL_DISPLAY_NAME), `the credential form is not of type "${CREDENTIAL_DISPLAY_NAME}"; its header says: ${header}`);
	for (const field of ['baseUrl', 'apiKey', 'altBaseUrl']) {
		check(await modal.getByTestId(`parameter-input-${field}`).isVisible(), `the credential form has no field "${field}"`);
	}
	await modal.getByTestId('parameter-input-baseUrl').locator('input').fill(`${env.sim.mainUrl}/v1`);
}

async function wrongKey(page, env) {
	const modal = editor.credentialModal(page);
	const before = env.sim.find('GET', '/v1/models').length;
	await modal.getByTestId('parameter-input-apiKey').locator('input').fill(WRONG_KEY);
	await modal.getByTestId('credential-save-button').click();
	const failed = modal.getByText(/Couldn.t connect with these settings/);
	await failed.waitFor({ state: 'visible', timeout: 20000 }).catch(async () => {
		throw new Error(`no "Couldn't connect with these settings" after saving with a wrong key; the form says:\n${await modal.innerText()}`);
	});
	const details = modal.getByText('More details');
	if (await details.isVisible()) await details.click();
	const text = await modal.innerText();
	check(/refused this API key|API key is invalid/i.test(text), `the failed test does not show the credential's message about the key; the form says:\n${text}`);
	const calls = env.sim.find('GET', '/v1/models').slice(before);
	check(calls.length >= 1 && calls.every((r) => r.hasAuth && !r.authValid), `the simulator saw ${calls.length} GET /v1/models with a wrong key (expected at least 1, with the wrong Bearer key)`);
}

async function rightKey(page, env) {
	const modal = editor.credentialModal(page);
	const name = (await modal.getByTestId('credential-name').innerText()).trim();
	const before = env.sim.find('GET', '/v1/models').length;
	await modal.getByTestId('parameter-input-apiKey').locator('input').fill(env.goodKey);
	await modal.getByTestId('credential-save-button').click();
	// 1.123 shows the result in the form; 2.x closes the form when the test passes (it stays open on a failure).
	const shown = await editor.credentialTestOutcome(page, 20000);
	if (shown === 'failed' || shown === 'none') throw new Error(`saving with the right key shows ${shown === 'failed' ? '"Couldn\'t connect"' : 'no test result'}; the form says:\n${await modal.innerText()}`);
	const calls = env.sim.find('GET', '/v1/models').slice(before);
	check(calls.some((r) => r.authValid), `the simulator recorded no GET /v1/models with the right key (${calls.length} calls since saving)`);
	if (shown === 'closed') await editor.openNodeCredential(page); // it tests again on opening
	const success = modal.getByTestId('credentials-config-container-test-success');
	await waitUntil(async () => (await success.isVisible()) && /Connection tested successfully/.test(await success.innerText()), 'no visible "Connection tested successfully"', 20000).catch(async (e) => {
		throw new Error(`${e.message.split(' (last')[0]}; the form says:\n${await modal.innerText()}`);
	});
	check(!(await modal.getByText(/Couldn.t connect with these settings/).isVisible()), 'the failure banner is still shown next to the success');
	await env.shot(modal, 'credential-test-success.png');
	await editor.closeCredentialModal(page);
	await waitUntil(async () => (await editor.nodeCredentialName(page)) === name, `the node does not use the new credential "${name}"`).catch(async (e) => {
		throw new Error(`${e.message} (it shows "${await editor.nodeCredentialName(page)}")`);
	});
}

async function modelList(page, env) {
	const before = env.sim.count('GET', '/v1/models');
	const names = await editor.openModelList(page);
	const found = await waitUntil(async () => {
		const n = await names();
		return n.includes('nano-banana') ? n : false;
	}, 'the model list shows no "nano-banana"');
	check(found.includes('gpt-image-2'), `the model list has no gpt-image-2: ${list(found)}`);
	check(!found.some((x) => /^(sora|veo|seedance|claude|deepseek)/.test(x)), `the image model list holds non-image models: ${list(found)}`);
	check(env.sim.count('GET', '/v1/models') > before, 'the simulator recorded no GET /v1/models for the list');
	await editor.pickFromModelList(page, 'nano-banana');
	const shown = editor.labels(editor.topLevel(await editor.shownParameters(page)));
	check(!shown.includes('Resolution'), `nano-banana picked from the list still shows Resolution; shown: ${list(shown)}`);
}

async function run(session, env, { ADD }) {
	const { page } = env;
	await session.test(OPEN, () => openForm(page, env), [ADD]);
	await session.test(WRONG, () => wrongKey(page, env), [OPEN]);
	await session.test(OK, () => rightKey(page, env), [OPEN]);
	await session.test(LIST, () => modelList(page, env), [OK]);
}

module.exports = { run, WRONG_KEY };
