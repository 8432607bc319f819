'use strict';
/*
 * The credential of the open node panel, as the editor offers it. 1.123: a select with
 * "Create new credential" at its end. 2.x: a node without a credential shows a "Connect to …"
 * button (the select comes back once one exists).
 */

const { waitUntil } = require('./session');

const credentialModal = (page) => page.getByTestId('editCredential-modal');

/** Open the "new credential" form of the node's credential type; returns the modal. */
async function openNewCredential(page) {
	const panel = page.getByTestId('ndv');
	const select = panel.getByTestId('node-credentials-select');
	const connect = panel.getByRole('button', { name: /^Connect to / });
	const which = await waitUntil(
		async () => ((await connect.isVisible()) && 'connect') || ((await select.isVisible()) && 'select'),
		'the node panel shows neither a "Connect to …" button nor a credential select',
	);
	if (which === 'connect') {
		await connect.click();
	} else {
		await select.click();
		await page.getByText('Create new credential', { exact: true }).click();
	}
	const modal = credentialModal(page);
	await modal.waitFor();
	return modal;
}

/**
 * After Save: 'success' (the form shows "Connection tested successfully"), 'closed' (2.x closes a
 * new credential's form once its test passes) or 'failed' ("Couldn't connect" still shown once
 * the save is over: the banner of an earlier failed test stays up while saving again).
 */
async function credentialTestOutcome(page, timeoutMs) {
	const modal = credentialModal(page);
	const good = async () =>
		(!(await modal.isVisible()) && 'closed') || ((await modal.getByTestId('credentials-config-container-test-success').isVisible()) && 'success');
	const saving = async () => (await modal.isVisible()) && /Saving/.test(await modal.getByTestId('credential-save-button').innerText());
	await waitUntil(async () => (await good()) || !(await saving()), 'the credential form is still saving', timeoutMs);
	const outcome = await waitUntil(good, 'no test result', 5000).catch(() => undefined);
	if (outcome) return outcome;
	return (await modal.getByText(/Couldn.t connect with these settings/).isVisible()) ? 'failed' : 'none';
}

/** Open the node's credential for editing (the pencil next to it); n8n tests it again on opening. */
async function openNodeCredential(page) {
	await page.getByTestId('ndv').getByTestId('credential-edit-button').click();
	await credentialModal(page).waitFor();
}

async function closeCredentialModal(page) {
	const modal = credentialModal(page);
	// Its own close button: on 2.x Escape closes the node panel under it too.
	await modal.locator('.el-dialog__headerbtn').click();
	await modal.waitFor({ state: 'hidden' });
}

/** The name of the credential the open node uses ('' when none). */
async function nodeCredentialName(page) {
	const input = page.getByTestId('ndv').getByTestId('node-credentials-select').locator('input');
	if (!(await input.count())) return '';
	return (await input.first().inputValue()).trim();
}

module.exports = { credentialModal, openNewCredential, credentialTestOutcome, openNodeCredential, closeCredentialModal, nodeCredentialName };
