'use strict';
/*
 * Running in the editor and reading the output panel: a node's run button, the canvas's
 * "Execute workflow", the item count, the JSON view and the binary view with its preview.
 */

const { check, waitUntil } = require('./session');

const ndv = (page) => page.getByTestId('ndv');
const output = (page) => ndv(page).getByTestId('output-panel');

async function runButtonLabel(page) {
	return (await ndv(page).getByTestId('node-execute-button').first().innerText()).trim();
}

/** Wait until the output panel shows data (resolves) or an error (throws its text). */
async function outputOutcome(page, timeoutMs) {
	const panel = output(page);
	const outcome = await waitUntil(
		async () =>
			((await panel.getByTestId('node-error-message').isVisible()) && 'error') ||
			((await panel.getByTestId('ndv-run-data-display-mode').isVisible()) && 'data'),
		'the output panel shows neither data nor an error',
		timeoutMs,
	);
	check(outcome === 'data', `n8n shows an error; the output panel says:\n${(await panel.innerText()).slice(0, 400)}`);
	return panel;
}

/** Run the open node (its "Execute step" / "Fetch Test Event" button) and wait for its output. */
async function runOpenNode(page, timeoutMs = 20000) {
	await ndv(page).getByTestId('node-execute-button').first().click();
	return outputOutcome(page, timeoutMs);
}

/** "Execute workflow" on the canvas, then wait until the run has finished. */
async function runWorkflow(page, timeoutMs = 30000) {
	const button = page.getByTestId('execute-workflow-button');
	await button.click();
	await waitUntil(async () => !(await page.getByTestId('stop-execution-button').isVisible()) && (await button.isEnabled()), 'the workflow run did not finish', timeoutMs);
}

async function outputItemCount(page) {
	const text = (await output(page).getByTestId('ndv-items-count').innerText()).trim();
	const m = /^(\d+) items?\b/.exec(text);
	check(m, `the output panel's item count reads "${text}"`);
	return Number(m[1]);
}

/** Switch the output to JSON; wait until its text passes `accept`; return the text. */
async function outputJson(page, accept, message) {
	const panel = await outputOutcome(page, 20000);
	await panel.getByTestId('ndv-run-data-display-mode').getByText('JSON', { exact: true }).click();
	return waitUntil(async () => {
		const text = (await panel.getByTestId('ndv-data-container').innerText()).replace(/\s+/g, ' ');
		return accept(text) ? text : false;
	}, message);
}

/** Switch the output to Binary and open the preview of `property`; returns { fileName, mimeType, width, height }. */
async function showBinaryPreview(page, property) {
	const panel = await outputOutcome(page, 20000);
	await panel.getByTestId('ndv-run-data-display-mode').getByText('Binary', { exact: true }).click();
	const card = panel.locator('[data-test-id^="ndv-binary-data"]').first();
	await card.waitFor();
	const text = await card.innerText();
	check(text.split('\n')[0].trim() === property, `the binary view's first file is not "${property}": ${text}`);
	const fileName = (/File Name:\s*(\S+)/i.exec(text) || [])[1] || '';
	const mimeType = (/Mime Type:\s*(\S+)/i.exec(text) || [])[1] || '';
	await card.getByTestId('ndv-view-binary-data').click();
	const img = panel.locator('.binary-data-window img').first();
	await img.waitFor();
	const size = await waitUntil(
		async () => img.evaluate((el) => el.complete && el.naturalWidth > 0 && { width: el.naturalWidth, height: el.naturalHeight }),
		'the binary preview shows no loaded picture',
	);
	return { fileName, mimeType, ...size };
}

/**
 * The field names the open node's input panel offers for mapping (its schema view) until
 * `expected` are all seen: for a parent that has not run, n8n shows the parent's output schema.
 * The list is virtual (only the rows in view exist), so it is scrolled when a field is not in view.
 */
async function inputSchemaFields(page, expected) {
	const panel = page.getByTestId('ndv-input-panel');
	await panel.waitFor({ timeout: 30000 });
	const schemaTab = panel.getByTestId('radio-button-schema');
	if (await schemaTab.isVisible()) await schemaTab.click();
	const rows = panel.getByTestId('run-data-schema-item');
	await rows.first().waitFor({ timeout: 30000 });
	const seen = new Set();
	for (let scrolls = 0; scrolls <= 12; scrolls++) {
		for (const text of await rows.allInnerTexts()) seen.add(text.trim().split('\n')[0].trim());
		if (expected.every((field) => seen.has(field))) break;
		await rows.last().hover();
		await page.mouse.wheel(0, 300);
		await page.waitForTimeout(200);
	}
	return [...seen];
}

module.exports = { inputSchemaFields, runButtonLabel, runOpenNode, runWorkflow, outputItemCount, outputJson, showBinaryPreview };
