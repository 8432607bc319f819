'use strict';
/*
 * Drives n8n's editor: canvas, node creator, node panel and its fields. Every selector of the UI
 * test lives in editor*.js (this file, -browser, -credentials, -run), so an editor change is fixed there. Written for the 2.x editor
 * (what users get today) and kept working on 1.123 where it costs a line: the differences are
 * named where they are handled.
 */

const { check, waitUntil, list } = require('./session');

// ---- canvas

/** A new workflow: 1.x stays on /workflow/new, 2.x redirects to /workflow/<id>?new=true. */
async function openNewWorkflow(page, baseUrl) {
	await page.goto(`${baseUrl}/workflow/new`, { waitUntil: 'domcontentloaded', timeout: 60000 });
	await page.getByTestId('canvas-add-button').waitFor({ timeout: 60000 });
	check(/\/workflow\/(new|[A-Za-z0-9]+\?new=true)/.test(page.url()), `expected a new workflow, the browser is at ${page.url()} (not logged in?)`);
}

async function openWorkflow(page, baseUrl, id) {
	await page.goto(`${baseUrl}/workflow/${id}`, { waitUntil: 'domcontentloaded', timeout: 60000 });
	await page.getByTestId('canvas-node').first().waitFor({ timeout: 60000 });
}

const canvasNode = (page, name) => page.locator(`[data-test-id="canvas-node"][data-node-name="${name.replace(/"/g, '\\"')}"]`);

async function canvasNodeNames(page) {
	return page.getByTestId('canvas-node').evaluateAll((els) => els.map((e) => e.getAttribute('data-node-name')));
}

async function errorToasts(page) {
	return page.locator('.el-notification:visible').filter({ has: page.locator('.el-notification--error') }).allInnerTexts();
}

/** Node creator: search the node, open its actions, click the action whose text is `actionText`. */
async function addNodeFromCreator(page, nodeName, actionText) {
	await page.getByTestId('canvas-add-button').click();
	await page.getByTestId('node-creator-search-bar').fill(nodeName);
	const item = page.getByTestId('node-creator-item-name').filter({ hasText: new RegExp(`^${nodeName}$`) });
	await waitUntil(async () => (await item.count()) === 1, `the node creator lists no node "${nodeName}"`);
	await item.click();
	const actions = page.getByTestId('node-creator-category-item').filter({ hasText: /^Actions/ });
	if (await actions.isVisible()) await actions.click();
	const creatorText = await page.getByTestId('node-creator').innerText();
	check(creatorText.includes(actionText), `the node's actions have no "${actionText}"; the creator shows:\n${creatorText}`);
	await page.getByTestId('item-iterator-item').filter({ hasText: actionText }).first().click();
	await ndv(page).waitFor();
}

const nodeCreator = (page) => page.getByTestId('node-creator');

/**
 * Node creator: the names it lists for a search (the codex's aliases count, not only the name),
 * once `expected` is among them (the list updates a moment after typing), or after 15 s.
 */
async function searchNodeCreator(page, text, expected) {
	// An empty canvas has its "Add first step" button; one with nodes, the creator's "+" button;
	// an open creator (an earlier search) takes the next word in its search bar.
	const bar = page.getByTestId('node-creator-search-bar');
	if (!(await bar.isVisible())) {
		const empty = page.getByTestId('canvas-add-button');
		await (await empty.isVisible() ? empty : page.getByTestId('node-creator-plus-button')).click();
	}
	await bar.fill(text);
	const items = page.getByTestId('node-creator-item-name');
	let names = [];
	const listed = async () => {
		names = (await items.allInnerTexts()).map((t) => t.trim());
		return names.includes(expected);
	};
	await waitUntil(listed, '', 15000).catch(() => {});
	return names;
}

// ---- the node panel (NDV)

const ndv = (page) => page.getByTestId('ndv');
const nodeParameters = (page) => ndv(page).getByTestId('node-parameters');
const nodeSettings = (page) => ndv(page).locator('.node-settings');
const parameterInput = (page, name) => nodeParameters(page).getByTestId(`parameter-input-${name}`);

async function openNode(page, name) {
	await canvasNode(page, name).dblclick({ timeout: 30000 });
	await ndv(page).waitFor();
}

/** 1.x has a "Back to canvas" button, 2.x has not: Escape closes the panel on both. */
async function closeNode(page) {
	const back = page.getByTestId('back-to-canvas');
	if (await back.isVisible()) await back.click();
	else await page.keyboard.press('Escape');
	await ndv(page).waitFor({ state: 'hidden' });
}

/**
 * The visible parameters of the open node panel, in order: { name, label, path, nested }.
 * `nested` is true for a parameter inside a collection (e.g. Options → Size).
 */
async function shownParameters(page) {
	return nodeParameters(page)
		.locator('[data-test-id="parameter-item"]')
		.evaluateAll((items) =>
			items
				.filter((el) => el.getClientRects().length > 0)
				.map((el) => {
					// This item's own label and input, not those of parameters nested in it.
					const own = (sel) => [...el.querySelectorAll(sel)].find((x) => x.closest('[data-test-id="parameter-item"]') === el);
					const label = own('[data-test-id="input-label"] label');
					const pathEl = own('[data-parameter-path]');
					const name = label ? label.getAttribute('for') || '' : '';
					const nested = !!(el.parentElement && el.parentElement.closest('[data-test-id="parameter-item"]'));
					return {
						name,
						label: label ? label.innerText.replace(/\s+/g, ' ').replace(/Fixed Expression$/, '').trim() : '',
						// A collection (e.g. Options) has no input of its own: its path is its name.
						path: pathEl ? pathEl.getAttribute('data-parameter-path') : name && !nested ? `parameters.${name}` : '',
						nested,
					};
				})
				.filter((x) => x.path.startsWith('parameters.') || x.name),
		);
}

const topLevel = (params) => params.filter((p) => !p.nested && p.path.startsWith('parameters.'));
const labels = (params) => params.map((p) => p.label);

/**
 * An element-plus select (options fields, the resource locator's mode): open it and return
 * { names, pick(name) } for its own list (the one its combobox input controls, so a closing list
 * of another field never answers).
 */
async function openSelect(page, select) {
	const input = select.locator('input[role="combobox"]').first();
	await input.click();
	const id = await input.getAttribute('aria-controls');
	check(id, 'the select has no list (aria-controls)');
	const items = page.locator(`[id="${id}"] .el-select-dropdown__item`);
	await waitUntil(async () => (await items.count()) > 0 && (await items.first().isVisible()), 'the select shows no options', 5000);
	const names = await items.evaluateAll((els) =>
		els.map((el) => {
			const head = el.querySelector('.option-headline');
			return (head ? head.innerText : el.innerText).trim();
		}),
	);
	const pick = async (name) => {
		const index = names.indexOf(name);
		check(index >= 0, `the select has no option "${name}"; it offers ${list(names)}`);
		await items.nth(index).click();
		await waitUntil(async () => !(await items.first().isVisible()), `the list did not close after choosing "${name}"`, 5000);
	};
	return { names, pick };
}

async function selectedValue(page, name) {
	return parameterInput(page, name).locator('input').first().inputValue();
}

/** Open the options field `name`, return its option names and pick `pick` (default: keep the value). */
async function optionsOf(page, name, pick) {
	const before = await selectedValue(page, name);
	const select = await openSelect(page, parameterInput(page, name));
	const choice = pick && select.names.includes(pick) ? pick : select.names.includes(before) ? before : select.names[0];
	await select.pick(choice);
	return select.names;
}

const modelLocator = (page) => nodeParameters(page).getByTestId('resource-locator-modelId');

/** Set the model resource locator to `id` in its "By ID" mode. */
async function setModelById(page, id) {
	const rl = modelLocator(page);
	const mode = rl.getByTestId('rlc-mode-selector');
	if (!/ID/.test(await mode.locator('input').inputValue())) await (await openSelect(page, mode)).pick('By ID');
	const input = rl.getByTestId('rlc-input');
	await input.fill(id);
	await input.blur();
	await waitUntil(async () => (await input.inputValue()) === id, `the model field does not hold "${id}"`);
}

/** Switch the model locator to "From list" and open it; returns a function giving the listed names. */
async function openModelList(page) {
	const rl = modelLocator(page);
	await (await openSelect(page, rl.getByTestId('rlc-mode-selector'))).pick('From list');
	await rl.getByTestId('rlc-input').click();
	return async () => (await page.getByTestId('rlc-item').allInnerTexts()).map((x) => x.trim());
}

async function pickFromModelList(page, id) {
	await page.getByTestId('rlc-item').filter({ hasText: new RegExp(`^\\s*${id.replace(/\./g, '\\.')}\\s*$`) }).first().click();
	await waitUntil(async () => (await modelLocator(page).getByTestId('rlc-input').inputValue()) === id, `picking ${id} from the list did not set the model`);
}

/** Add the first of `optionLabels` to the collection parameter `name` ("Add Option": a button for one, a list for several). */
async function addCollectionOption(page, name, optionLabels) {
	const collection = nodeParameters(page).locator('[data-test-id="parameter-item"]').filter({ has: page.locator(`label[for="${name}"]`) }).first();
	const addButton = collection.getByRole('button', { name: 'Add Option' });
	if (optionLabels.length === 1 && (await addButton.count())) {
		await addButton.click();
	} else {
		const select = await openSelect(page, collection.locator('.param-options'));
		const notOffered = optionLabels.filter((l) => !select.names.includes(l));
		check(!notOffered.length, `"Add Option" does not offer ${list(notOffered)}; it offers ${list(select.names)}`);
		await select.pick(optionLabels[0]);
	}
	const nested = await waitUntil(async () => {
		const p = (await shownParameters(page)).filter((x) => x.nested);
		return p.some((x) => x.label === optionLabels[0]) ? p : false;
	}, `adding the option "${optionLabels[0]}" shows no such field`);
	return nested.find((x) => x.label === optionLabels[0]);
}

module.exports = {
	nodeCreator,
	searchNodeCreator,
	openNewWorkflow,
	openWorkflow,
	canvasNode,
	canvasNodeNames,
	errorToasts,
	addNodeFromCreator,
	ndv,
	nodeParameters,
	nodeSettings,
	parameterInput,
	openNode,
	closeNode,
	shownParameters,
	topLevel,
	labels,
	openSelect,
	selectedValue,
	optionsOf,
	setModelById,
	openModelList,
	pickFromModelList,
	addCollectionOption,
	...require('./editor-browser'),
	...require('./editor-run'),
	...require('./editor-credentials'),
};
