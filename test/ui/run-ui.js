#!/usr/bin/env node
'use strict';
/*
 * The node's editor form checked in a real browser (GitHub issue 8).
 *
 *   npm run test:ui          (builds, then runs this file)
 *   node test/ui/run-ui.js   (uses the dist/ that is there)
 *
 * Starts real n8n (`n8n start`, the install of test/e2e: N8N_E2E_DIR) on a free loopback
 * port with this package installed as a community package, creates the owner through the
 * REST API, logs in, and drives Debian's Chromium with playwright-core:
 *   node creator → Unified AI Gateway → Image → Generate; gpt-image-2 fields; nano-banana
 *   fields; the credential's connection test against the gateway simulator (a wrong key
 *   first, then the right one); the model list; example workflows imported and opened; the
 *   Unified AI Gateway Trigger's "Fetch Test Event" (manual mode) on a simulator task.
 * Screenshots go to docs/screenshots/ (UI_SCREENSHOTS_DIR to change); on a failure a
 * page screenshot and the n8n log go to test/ui/.artifacts/.
 *
 * Environment: CHROMIUM_PATH (default /usr/bin/chromium), UI_KEEP=1 keeps the temp folder,
 * UI_PACKAGE_DIR tests another built copy of the package (default: this repo),
 * UI_VERBOSE=1 prints browser console errors, UI_N8N_LOG_LEVEL (default warn).
 */

const fs = require('fs');
const os = require('os');
const path = require('path');

const e2e = require('../e2e/run-e2e');
const { startN8n, setupOwnerAndLogin, restJson } = require('./n8n-server');

const REPO = e2e.REPO_ROOT;
// The package under test (built): this repo unless UI_PACKAGE_DIR names another copy.
const PACKAGE_DIR = path.resolve(process.env.UI_PACKAGE_DIR || REPO);
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SHOTS_DIR = path.resolve(process.env.UI_SCREENSHOTS_DIR || path.join(REPO, 'docs', 'screenshots'));
const ARTIFACTS_DIR = path.join(__dirname, '.artifacts');
const GOOD_KEY = 'sk-sim-good';
const WRONG_KEY = 'sk-sim-wrong-key';
const NODE_DISPLAY_NAME = 'Unified AI Gateway';
const CREDENTIAL_DISPLAY_NAME = 'Unified AI Gateway API';
const PACKAGE_NAME = 'n8n-nodes-unified-ai-gateway';
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
const verbose = () => process.env.UI_VERBOSE === '1';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------
// Small assertion helpers (a failed check throws with a message that says what is missing)

function check(cond, message) {
	if (!cond) throw new Error(message);
}

/** Poll fn until it returns a truthy value; throw message (plus the last value) on timeout. */
async function waitUntil(fn, message, timeoutMs = 10000) {
	const started = Date.now();
	let last;
	for (;;) {
		try {
			last = await fn();
			if (last) return last;
		} catch (e) {
			last = e.message;
		}
		if (Date.now() - started > timeoutMs) {
			throw new Error(`${message}${last !== undefined && last !== false ? ` (last: ${JSON.stringify(last)})` : ''}`);
		}
		await sleep(200);
	}
}

const list = (xs) => (xs.length ? xs.map((x) => `"${x}"`).join(', ') : '(none)');

// ---------------------------------------------------------------------------
// The image model registry in dist/: what the form must show for a model

function ruleLabel(key, rule) {
	return rule.label || key.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

/**
 * The registry row of modelId (main host) for an operation: { fields: labels of the rules that
 * are fields of their own (a default, more than one value), options: labels of the rules without
 * a default (entries of the "Options" collection) }. As described in registry/imageModels.ts.
 */
function registryExpectation(modelId, operation) {
	const file = path.join(PACKAGE_DIR, 'dist', 'nodes', 'UnifiedAiGateway', 'registry', 'imageModels.js');
	check(fs.existsSync(file), `the image model registry is not built (${path.relative(REPO, file)} missing)`);
	delete require.cache[require.resolve(file)];
	const { IMAGE_MODELS } = require(file);
	check(Array.isArray(IMAGE_MODELS), `${path.relative(REPO, file)} exports no IMAGE_MODELS array`);
	const row = IMAGE_MODELS.find((m) => m.id === modelId && m.host !== 'alt') || IMAGE_MODELS.find((m) => m.id === modelId);
	check(row, `the registry has no row for ${modelId}`);
	const rules = Object.entries((row.fields && row.fields[operation]) || {});
	const fixed = (r) => Array.isArray(r.values) && r.values.length === 1 && r.default !== undefined;
	return {
		fields: rules.filter(([, r]) => r.default !== undefined && !fixed(r)).map(([k, r]) => ruleLabel(k, r)),
		options: rules.filter(([, r]) => r.default === undefined).map(([k, r]) => ruleLabel(k, r)),
	};
}

// ---------------------------------------------------------------------------
// The n8n editor (selectors of n8n 1.123: data-test-id attributes)

const ndv = (page) => page.getByTestId('ndv');
const nodeParameters = (page) => page.getByTestId('node-parameters');

/**
 * The visible parameters of the open node panel, in order: { name, label, nested }.
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
 * An element-plus select (n8n's options fields, the resource locator's mode): open it and
 * return { names, pick(name) } for its own list (the list its combobox input controls, so a
 * closing list of another field never answers).
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

/** Open the options field `name` of the node panel, return its option names and pick `pick` (default: keep). */
async function optionsOf(page, name, pick) {
	const before = await selectedValue(page, name);
	const select = await openSelect(page, nodeParameters(page).getByTestId(`parameter-input-${name}`));
	const choice = pick && select.names.includes(pick) ? pick : select.names.includes(before) ? before : select.names[0];
	await select.pick(choice);
	return select.names;
}

async function selectedValue(page, name) {
	return nodeParameters(page).getByTestId(`parameter-input-${name}`).locator('input').first().inputValue();
}

/** Set the model resource locator to `id` in its "By ID" mode. */
async function setModelById(page, id) {
	const rl = nodeParameters(page).getByTestId('resource-locator-modelId');
	const mode = rl.getByTestId('rlc-mode-selector');
	if (!/ID/.test(await mode.locator('input').inputValue())) await (await openSelect(page, mode)).pick('By ID');
	const input = rl.getByTestId('rlc-input');
	await input.fill(id);
	await input.blur();
	await waitUntil(async () => (await input.inputValue()) === id, `the model field does not hold "${id}"`);
}

/** Screenshot a locator (cropped to it) or a page into SHOTS_DIR/name; blur: no focused field. */
async function screenshot(target, name, { blur = true } = {}) {
	fs.mkdirSync(SHOTS_DIR, { recursive: true });
	const file = path.join(SHOTS_DIR, name);
	const pg = typeof target.page === 'function' ? target.page() : target;
	if (blur) await pg.evaluate(() => document.activeElement && document.activeElement.blur());
	await target.screenshot({ path: file, animations: 'disabled' });
	return file;
}

// ---------------------------------------------------------------------------
// The test run

async function main() {
	const started = Date.now();
	const results = [];
	let n8n;
	let sim;
	let browser;
	const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-ui-'));
	const userFolder = path.join(tmpRoot, 'user');
	fs.mkdirSync(userFolder, { recursive: true });
	const onSignal = (signal) => {
		if (n8n) {
			try {
				process.kill(-n8n.child.pid, 'SIGKILL');
			} catch {
				// gone
			}
		}
		if (process.env.UI_KEEP !== '1') fs.rmSync(tmpRoot, { recursive: true, force: true });
		console.log(`interrupted (${signal})`);
		console.log(`0 passed, 1 failed`);
		process.exit(130);
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);

	const state = { pageErrors: [] };
	const failedNames = new Set();
	let page;
	let ctx;

	async function test(name, fn, needs = []) {
		const t = Date.now();
		const missing = needs.filter((n) => failedNames.has(n));
		if (missing.length) {
			failedNames.add(name);
			results.push({ name, ok: false });
			console.log(`FAIL ${name}: not run, it needs "${missing.join('", "')}"`);
			return;
		}
		try {
			await fn();
			results.push({ name, ok: true });
			console.log(`ok  ${name}  (${((Date.now() - t) / 1000).toFixed(1)}s)`);
		} catch (e) {
			failedNames.add(name);
			results.push({ name, ok: false });
			const msg = errorText(e);
			console.log(`FAIL ${name}: ${msg.split('\n')[0]}`);
			const rest = msg.split('\n').slice(1, 12).join('\n').trim();
			if (rest) console.log(rest.replace(/^/gm, '      '));
			await saveFailureArtifacts(name);
		}
	}

	async function saveFailureArtifacts(name) {
		try {
			fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
			const slug = name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').slice(0, 60);
			if (page && !page.isClosed()) {
				const file = path.join(ARTIFACTS_DIR, `${slug}.png`);
				await page.screenshot({ path: file, timeout: 5000 });
				console.log(`      page screenshot: ${path.relative(REPO, file)}`);
			}
		} catch {
			// best effort
		}
	}

	try {
		// ---- setup: n8n, package, simulator, owner, browser
		if (!fs.existsSync(CHROMIUM)) {
			throw new Error(
				`Chromium not found at ${CHROMIUM}: install Debian's package (apt-get install -y --no-install-recommends chromium) or set CHROMIUM_PATH`,
			);
		}
		const missingBuild = ['dist/nodes/UnifiedAiGateway/UnifiedAiGateway.node.js', 'dist/credentials/UnifiedAiGatewayApi.credentials.js'].filter(
			(f) => !fs.existsSync(path.join(PACKAGE_DIR, f)),
		);
		if (missingBuild.length) throw new Error(`build output missing (run npm run build): ${missingBuild.join(', ')}`);

		fs.rmSync(ARTIFACTS_DIR, { recursive: true, force: true }); // failures of an earlier run
		const host = await e2e.prepareN8n();
		console.log(`n8n ${e2e.N8N_VERSION} ${host.reused ? 'reused from' : 'installed in'} ${host.dir}`);
		let t = Date.now();
		await e2e.installPackage(userFolder, { packDir: tmpRoot, packageDir: PACKAGE_DIR });
		console.log(`packed and installed the package into a fresh n8n user folder (${((Date.now() - t) / 1000).toFixed(1)}s)`);

		sim = await require('../simulator').startSimulator({ apiKey: GOOD_KEY });
		t = Date.now();
		n8n = await startN8n(userFolder, { bin: host.bin });
		console.log(`n8n start on ${n8n.baseUrl} ready (${((Date.now() - t) / 1000).toFixed(1)}s)`);
		const { cookie } = await setupOwnerAndLogin(n8n.baseUrl);
		console.log('owner created and logged in through the REST API');

		const { chromium, selectors } = require('playwright-core');
		selectors.setTestIdAttribute('data-test-id');
		browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
		ctx = await browser.newContext({ viewport: { width: 1440, height: 1200 } });
		const origin = new URL(n8n.baseUrl).origin;
		await ctx.addCookies([{ name: 'n8n-auth', value: cookie, url: n8n.baseUrl, httpOnly: true, sameSite: 'Lax' }]);
		// Only n8n itself: the editor's calls to outside services (banners, templates, icons) fail fast.
		await ctx.route('**/*', (route) => {
			const url = route.request().url();
			if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
			return route.abort();
		});
		// No CSS transitions: a dropdown that is still fading in or out is never clicked.
		await ctx.addInitScript(() => {
			const add = () => {
				const style = document.createElement('style');
				style.textContent = '*, *::before, *::after { transition: none !important; animation: none !important; }';
				document.head.appendChild(style);
			};
			if (document.head) add();
			else document.addEventListener('DOMContentLoaded', add);
		});
		ctx.setDefaultTimeout(15000);
		const watch = (p) => {
			p.on('pageerror', (err) => state.pageErrors.push({ at: Date.now(), message: err.message, url: p.url() }));
			if (verbose()) p.on('console', (m) => m.type() === 'error' && console.log(`      [console] ${m.text().slice(0, 200)}`));
		};
		ctx.on('page', watch);
		page = await ctx.newPage();

		// ---- the tests
		const OPEN = 'the editor opens a new workflow (auth cookie from the REST login)';
		await test(OPEN, async () => {
			await page.goto(`${n8n.baseUrl}/workflow/new`, { waitUntil: 'domcontentloaded' });
			await page.getByTestId('canvas-add-button').waitFor({ timeout: 30000 });
			check(/\/workflow\/new/.test(page.url()), `expected the new-workflow page, the browser is at ${page.url()} (not logged in?)`);
		});

		const ADD = `node creator adds "${NODE_DISPLAY_NAME}", resource Image → operation Generate`;
		await test(
			ADD,
			async () => {
				await page.getByTestId('canvas-add-button').click();
				await page.getByTestId('node-creator-search-bar').fill(NODE_DISPLAY_NAME);
				const item = page.getByTestId('node-creator-item-name').filter({ hasText: new RegExp(`^${NODE_DISPLAY_NAME}$`) });
				await waitUntil(async () => (await item.count()) === 1, `the node creator lists no node "${NODE_DISPLAY_NAME}"`);
				await item.click();
				// The node's actions: the Image resource's Generate action must be among them.
				const actions = page.getByTestId('node-creator-category-item').filter({ hasText: /^Actions/ });
				await actions.click();
				const creator = page.getByTestId('node-creator');
				const creatorText = await creator.innerText();
				check(
					/Generate images from a prompt/.test(creatorText),
					`the node's actions have no "Generate images from a prompt" (Image → Generate); the creator shows:\n${creatorText}`,
				);
				await page.getByTestId('item-iterator-item').filter({ hasText: 'Generate images from a prompt' }).click();
				await ndv(page).waitFor();
				// Pick resource and operation explicitly in the form too.
				const resources = await optionsOf(page, 'resource', 'Image');
				check(resources.includes('Image'), `the Resource field has no "Image" option; it offers ${list(resources)}`);
				await waitUntil(async () => (await selectedValue(page, 'resource')) === 'Image', 'the Resource field does not show "Image"');
				const operations = await optionsOf(page, 'operation', 'Generate');
				check(operations.includes('Generate'), `the Operation field has no "Generate" option; it offers ${list(operations)}`);
				await waitUntil(async () => (await selectedValue(page, 'operation')) === 'Generate', 'the Operation field does not show "Generate"');
				const shown = labels(topLevel(await shownParameters(page)));
				check(shown.includes('Model') && shown.includes('Prompt'), `Image → Generate shows no Model and Prompt fields; shown: ${list(shown)}`);
			},
			[OPEN],
		);

		const GPT2 = 'gpt-image-2 shows its ratio sizes (16:9) and the Resolution field';
		await test(
			GPT2,
			async () => {
				await setModelById(page, 'gpt-image-2');
				const expected = registryExpectation('gpt-image-2', 'generate');
				const params = await waitUntil(async () => {
					const p = topLevel(await shownParameters(page));
					return p.some((x) => x.label === 'Resolution') ? p : false;
				}, 'gpt-image-2: no "Resolution" field is shown').catch(async (e) => {
					throw new Error(`${e.message.split(' (last')[0]}; shown: ${list(labels(topLevel(await shownParameters(page))))}`);
				});
				const shown = labels(params);
				const sizeField = params.find((x) => x.name === 'size');
				check(sizeField, `gpt-image-2: no size field (parameter "size") is shown; shown: ${list(shown)}`);
				// The ratio list, open, for the docs; then choose 16:9.
				const sizeSelect = await openSelect(page, nodeParameters(page).getByTestId('parameter-input-size'));
				const sizes = sizeSelect.names;
				check(sizes.includes('16:9'), `gpt-image-2: the ${sizeField.label} field has no option "16:9"; it offers ${list(sizes)}`);
				const listShot = await screenshot(page.locator('.node-settings'), 'image-generate-gpt-image-2-ratios.png', { blur: false });
				console.log(`      screenshot ${path.relative(REPO, listShot)}`);
				await sizeSelect.pick('16:9');
				for (const ratio of ['1:1', '9:16', '21:9']) {
					check(sizes.includes(ratio), `gpt-image-2: the ${sizeField.label} field has no ratio "${ratio}"; it offers ${list(sizes)}`);
				}
				// Spec 4.4: gpt-image-2 takes pixel sizes too (its default is 1024x1024).
				check(sizes.includes('1024x1024'), `gpt-image-2: the ${sizeField.label} field has no pixel size 1024x1024; it offers ${list(sizes)}`);
				await waitUntil(async () => (await selectedValue(page, 'size')) === '16:9', `gpt-image-2: choosing 16:9 in ${sizeField.label} did not stick`);
				const resolutionSelect = await openSelect(page, nodeParameters(page).getByTestId('parameter-input-resolution'));
				const resolutions = resolutionSelect.names;
				for (const r of ['1k', '2k', '4k']) {
					check(resolutions.some((x) => x.toLowerCase().startsWith(r)), `gpt-image-2: Resolution has no "${r}"; it offers ${list(resolutions)}`);
				}
				const twoK = resolutions.find((x) => x.toLowerCase().startsWith('2k'));
				await resolutionSelect.pick(twoK);
				await waitUntil(async () => (await selectedValue(page, 'resolution')) === twoK, `gpt-image-2: choosing "${twoK}" in Resolution did not stick`);
				const missing = expected.fields.filter((l) => !shown.includes(l));
				check(!missing.length, `gpt-image-2: the registry's fields ${list(missing)} are not shown; shown: ${list(shown)}`);
				const file = await screenshot(page.locator('.node-settings'), 'image-generate-gpt-image-2.png');
				console.log(`      screenshot ${path.relative(REPO, file)}`);
			},
			[ADD],
		);

		const NANO = 'nano-banana hides Resolution and shows its own fields';
		await test(
			NANO,
			async () => {
				await setModelById(page, 'nano-banana');
				const expected = registryExpectation('nano-banana', 'generate');
				const params = await waitUntil(async () => {
					const p = topLevel(await shownParameters(page));
					return p.some((x) => x.label === 'Resolution') ? false : p;
				}, 'nano-banana: the "Resolution" field is still shown');
				const shown = labels(params);
				check(!params.some((x) => x.name === 'resolution'), `nano-banana: a resolution field is still shown; shown: ${list(shown)}`);
				// gpt-image-2's own fields (Aspect Ratio with its ratio list, Resolution, ...) must be gone.
				const gpt2 = registryExpectation('gpt-image-2', 'generate');
				const leftOver = gpt2.fields.filter((l) => !expected.fields.includes(l) && shown.includes(l));
				check(!leftOver.length, `nano-banana: gpt-image-2's fields ${list(leftOver)} are still shown; shown: ${list(shown)}`);
				const missing = expected.fields.filter((l) => !shown.includes(l));
				check(!missing.length, `nano-banana: the registry's fields ${list(missing)} are not shown; shown: ${list(shown)}`);
				check(expected.options.length > 0, 'nano-banana: the registry row has no optional fields (expected Size)');
				check(shown.includes('Options'), `nano-banana: no "Options" collection is shown for its optional fields ${list(expected.options)}; shown: ${list(shown)}`);
				// Add the first optional field through "Add Option" (a button for one option, a list for several).
				const options = nodeParameters(page)
					.locator('[data-test-id="parameter-item"]')
					.filter({ has: page.locator('label[for="imageOptions"]') })
					.first();
				const addButton = options.getByRole('button', { name: 'Add Option' });
				if (expected.options.length === 1 && (await addButton.count())) {
					await addButton.click();
				} else {
					const select = await openSelect(page, options.locator('.param-options'));
					const notOffered = expected.options.filter((l) => !select.names.includes(l));
					check(!notOffered.length, `nano-banana: "Add Option" does not offer ${list(notOffered)}; it offers ${list(select.names)}`);
					await select.pick(expected.options[0]);
				}
				const nested = await waitUntil(async () => {
					const p = (await shownParameters(page)).filter((x) => x.nested);
					return p.some((x) => x.label === expected.options[0]) ? p : false;
				}, `nano-banana: adding the option "${expected.options[0]}" shows no such field`);
				const added = nested.find((x) => x.label === expected.options[0]);
				check(added.path.startsWith('parameters.imageOptions.'), `nano-banana: the added option is not inside the Options collection (${added.path})`);
				if (added.path === 'parameters.imageOptions.size') {
					// nano-banana's Size offers ratios (others go in as an expression): 16:9 is picked.
					const input = nodeParameters(page).locator('[data-parameter-path="parameters.imageOptions.size"]');
					const sizeSelect = await openSelect(page, input);
					check(sizeSelect.names.includes('16:9'), `nano-banana: Size has no option "16:9"; it offers ${list(sizeSelect.names)}`);
					await sizeSelect.pick('16:9');
					await waitUntil(async () => (await input.innerText()).includes('16:9') || (await input.locator('input').first().inputValue().catch(() => '')) === '16:9', 'nano-banana: choosing 16:9 in Size did not show');
				}
				const file = await screenshot(page.locator('.node-settings'), 'image-generate-nano-banana.png');
				console.log(`      screenshot ${path.relative(REPO, file)}`);
			},
			[ADD],
		);

		// ---- the credential, created from the node's "Credential to connect with"
		const modal = page.getByTestId('editCredential-modal');
		const CRED_OPEN = `"Create new credential" opens the ${CREDENTIAL_DISPLAY_NAME} form`;
		await test(
			CRED_OPEN,
			async () => {
				await nodeParameters(page).getByTestId('node-credentials-select').click();
				await page.getByText('Create new credential', { exact: true }).click();
				await modal.waitFor();
				const header = await modal.locator('header').innerText();
				check(header.includes(CREDENTIAL_DISPLAY_NAME), `the credential form is not of type "${CREDENTIAL_DISPLAY_NAME}"; its header says: ${header}`);
				for (const field of ['baseUrl', 'apiKey', 'altBaseUrl']) {
					check(await modal.getByTestId(`parameter-input-${field}`).isVisible(), `the credential form has no field "${field}"`);
				}
				await modal.getByTestId('parameter-input-baseUrl').locator('input').fill(`${sim.mainUrl}/v1`);
			},
			[ADD],
		);

		const CRED_WRONG = 'credential test with a wrong key: n8n shows the gateway refusing it';
		await test(
			CRED_WRONG,
			async () => {
				const before = sim.find('GET', '/v1/balance').length;
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
				const calls = sim.find('GET', '/v1/balance').slice(before);
				check(calls.length >= 1 && calls.every((r) => r.hasAuth && !r.authValid), `the simulator saw ${calls.length} GET /v1/balance with a wrong key (expected at least 1, with the wrong Bearer key)`);
			},
			[CRED_OPEN],
		);

		const CRED_OK = 'credential test with the right key: "Connection tested successfully" (GET /v1/balance)';
		let credentialName;
		await test(
			CRED_OK,
			async () => {
				const before = sim.find('GET', '/v1/balance').length;
				await modal.getByTestId('parameter-input-apiKey').locator('input').fill(GOOD_KEY);
				await modal.getByTestId('credential-save-button').click();
				const success = modal.getByTestId('credentials-config-container-test-success');
				await waitUntil(
					async () => (await success.isVisible()) && /Connection tested successfully/.test(await success.innerText()),
					'no visible "Connection tested successfully" after saving with the right key',
					20000,
				).catch(async (e) => {
					throw new Error(`${e.message.split(' (last')[0]}; the form says:\n${await modal.innerText()}`);
				});
				check(!(await modal.getByText(/Couldn.t connect with these settings/).isVisible()), 'the failure banner is still shown next to the success');
				const calls = sim.find('GET', '/v1/balance').slice(before);
				check(calls.some((r) => r.authValid), `the simulator recorded no GET /v1/balance with the right key (${calls.length} calls since saving)`);
				credentialName = await modal.getByTestId('credential-name').innerText();
				const file = await screenshot(modal, 'credential-test-success.png');
				console.log(`      screenshot ${path.relative(REPO, file)}`);
				await page.keyboard.press('Escape');
				await modal.waitFor({ state: 'hidden' });
				const selected = await nodeParameters(page).getByTestId('node-credentials-select').locator('input').inputValue();
				check(selected === credentialName.trim(), `the node does not use the new credential "${credentialName.trim()}" (it shows "${selected}")`);
			},
			[CRED_OPEN],
		);

		const LIST = 'model list ("From list") loads the gateway\'s image models';
		await test(
			LIST,
			async () => {
				const before = sim.count('GET', '/v1/models');
				const rl = nodeParameters(page).getByTestId('resource-locator-modelId');
				await (await openSelect(page, rl.getByTestId('rlc-mode-selector'))).pick('From list');
				await rl.getByTestId('rlc-input').click();
				const items = page.getByTestId('rlc-item');
				const names = await waitUntil(async () => {
					const n = await items.allInnerTexts();
					return n.map((x) => x.trim()).includes('nano-banana') ? n.map((x) => x.trim()) : false;
				}, 'the model list shows no "nano-banana"');
				check(names.includes('gpt-image-2'), `the model list has no gpt-image-2: ${list(names)}`);
				check(!names.some((x) => /^(sora|veo|seedance|claude|deepseek)/.test(x)), `the image model list holds non-image models: ${list(names)}`);
				check(sim.count('GET', '/v1/models') > before, 'the simulator recorded no GET /v1/models for the list');
				await items.filter({ hasText: /^\s*nano-banana\s*$/ }).first().click();
				await waitUntil(async () => (await rl.getByTestId('rlc-input').inputValue()) === 'nano-banana', 'picking nano-banana from the list did not set the model');
				const shown = labels(topLevel(await shownParameters(page)));
				check(!shown.includes('Resolution'), `nano-banana picked from the list still shows Resolution; shown: ${list(shown)}`);
			},
			[CRED_OK],
		);

		// ---- imported workflows, opened in their own tab
		const workflowFiles = [path.join(__dirname, '..', 'e2e', 'workflows', 'image-generate.json')].filter((f) => fs.existsSync(f));
		const examplesDir = path.join(REPO, 'examples');
		if (fs.existsSync(examplesDir)) {
			workflowFiles.push(
				...fs
					.readdirSync(examplesDir)
					.filter((f) => f.endsWith('.json'))
					.sort()
					.map((f) => path.join(examplesDir, f)),
			);
		}
		let credential;
		const ensureCredential = async () => {
			if (credential) return credential;
			const all = (await restJson(n8n.baseUrl, 'GET', '/rest/credentials', undefined, cookie)).json || [];
			credential = all.find((c) => c.type === 'unifiedAiGatewayApi');
			if (!credential) {
				credential = (
					await restJson(
						n8n.baseUrl,
						'POST',
						'/rest/credentials',
						{ name: 'Unified AI Gateway (ui)', type: 'unifiedAiGatewayApi', data: { baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey: GOOD_KEY } },
						cookie,
					)
				).json;
			}
			return credential;
		};
		const screenshotOf = workflowFiles.find((f) => /marketing/.test(f)) || workflowFiles[0];
		for (const file of workflowFiles) {
			const rel = path.relative(REPO, file);
			await test(
				`imported workflow ${rel} opens without errors`,
				async () => {
					const cred = await ensureCredential();
					const text = e2e.substitute(fs.readFileSync(file, 'utf8'), {
						SIM_MAIN: sim.mainUrl,
						SIM_ALT: sim.altUrl,
						SIM_FILES: sim.filesUrl,
						CRED_ID: cred.id,
						CRED_NAME: cred.name,
					});
					const wf = JSON.parse(text);
					const ours = wf.nodes.filter((n) => n.type.startsWith(`${PACKAGE_NAME}.`));
					for (const n of ours) {
						if (n.credentials && n.credentials.unifiedAiGatewayApi) n.credentials.unifiedAiGatewayApi = { id: cred.id, name: cred.name };
					}
					const created = (
						await restJson(
							n8n.baseUrl,
							'POST',
							'/rest/workflows',
							{ name: wf.name, nodes: wf.nodes, connections: wf.connections, settings: wf.settings || {}, pinData: wf.pinData || {}, active: false },
							cookie,
						)
					).json;
					check(created && created.id, `POST /rest/workflows returned no id for ${rel}`);
					const tab = await ctx.newPage();
					const openedAt = Date.now();
					try {
						await tab.goto(`${n8n.baseUrl}/workflow/${created.id}`, { waitUntil: 'domcontentloaded' });
						const canvasNodes = tab.getByTestId('canvas-node');
						await canvasNodes.first().waitFor({ timeout: 30000 });
						const expectedNames = wf.nodes.filter((n) => !/stickyNote$/.test(n.type)).map((n) => n.name);
						const names = await waitUntil(async () => {
							const n = await canvasNodes.evaluateAll((els) => els.map((e) => e.getAttribute('data-node-name')));
							return expectedNames.every((x) => n.includes(x)) ? n : false;
						}, `the canvas does not show every node of ${rel} (expected ${list(expectedNames)})`);
						check(names.length === expectedNames.length, `the canvas shows ${list(names)}, expected ${list(expectedNames)}`);
						const toasts = await tab
							.locator('.el-notification:visible')
							.filter({ has: tab.locator('.el-notification--error') })
							.allInnerTexts();
						check(!toasts.length, `error notifications: ${toasts.join(' | ')}`);
						if (file === screenshotOf) {
							await sleep(500); // let the canvas finish fitting the view
							const shot = await screenshot(tab, 'imported-workflow.png');
							console.log(`      screenshot ${path.relative(REPO, shot)}`);
						}
						// Each of our nodes opens in the node panel with its parameters and the credential.
						for (const n of ours) {
							await tab.locator(`[data-test-id="canvas-node"][data-node-name="${n.name.replace(/"/g, '\\"')}"]`).dblclick();
							await tab.getByTestId('ndv').waitFor();
							const params = tab.getByTestId('node-parameters');
							await params.waitFor({ timeout: 10000 }).catch(() => {
								throw new Error(`node "${n.name}" (${n.type}) opens without parameters (not installed?)`);
							});
							const issues = await params.locator('[data-test-id="parameter-issues"]:visible').count();
							if (issues) {
								const items = await params.locator('[data-test-id="parameter-item"]').filter({ has: tab.locator('[data-test-id="parameter-issues"]:visible') }).allInnerTexts();
								throw new Error(`node "${n.name}" shows parameter issues at: ${items.map((x) => x.split('\n')[0]).join(', ')}`);
							}
							if (n.credentials && n.credentials.unifiedAiGatewayApi) {
								const chosen = await params.getByTestId('node-credentials-select').locator('input').inputValue();
								check(chosen === cred.name, `node "${n.name}" does not show its credential "${cred.name}" (shows "${chosen}")`);
							}
							for (const key of ['size', 'resolution']) {
								const value = n.parameters && n.parameters[key];
								if (typeof value !== 'string' || value.startsWith('=')) continue;
								const input = params.getByTestId(`parameter-input-${key}`).locator('input').first();
								if (!(await input.count())) continue;
								const shownValue = await input.inputValue();
								check(shownValue.toLowerCase().startsWith(value.toLowerCase()), `node "${n.name}": ${key} is "${value}" in the JSON but the form shows "${shownValue}"`);
							}
							await tab.getByTestId('back-to-canvas').click();
							await tab.getByTestId('ndv').waitFor({ state: 'hidden' });
						}
						const errors = state.pageErrors.filter((x) => x.at >= openedAt);
						check(!errors.length, `uncaught errors in the page: ${errors.map((x) => x.message).join(' | ')}`);
					} finally {
						await tab.close();
					}
				},
				[OPEN],
			);
		}

		// ---- the trigger in manual mode: "Fetch Test Event" on a task made on the simulator
		const TRIGGER = 'the trigger in manual mode: "Fetch Test Event" shows a finished nano-banana task';
		await test(
			TRIGGER,
			async () => {
				const cred = await ensureCredential();
				const simJson = async (method, route, body) => {
					const res = await fetch(`${sim.mainUrl}${route}`, {
						method,
						headers: { authorization: `Bearer ${GOOD_KEY}`, 'content-type': 'application/json' },
						body: body && JSON.stringify(body),
					});
					return { status: res.status, json: await res.json() };
				};
				sim.scenario('nano-banana', { durationMs: 300 }); // tasks snapshot their scenario when made
				const made = await simJson('POST', '/v1/images/generations', { model: 'nano-banana', prompt: 'x' }).finally(() => sim.scenario('nano-banana', null));
				const taskId = made.json.data && made.json.data.task_id;
				check(taskId, `the simulator made no nano-banana task: ${made.status} ${JSON.stringify(made.json)}`);
				// Wait on the generic route; the trigger reads the image route, so every GET there is n8n's.
				await waitUntil(async () => ((answer) => (answer.data ? answer.data.status : answer.status))((await simJson('GET', `/v1/tasks/${taskId}`)).json) === 'completed', `task ${taskId} did not complete`);
				const queryPath = `/v1/images/generations/${taskId}`;
				const trigger = {
					id: 'a1b2c3d4-0000-4000-8000-000000000001',
					name: 'Unified AI Gateway Trigger',
					type: `${PACKAGE_NAME}.unifiedAiGatewayTrigger`,
					typeVersion: 1,
					position: [0, 0],
					parameters: { event: 'taskFinished', taskIds: taskId, queryRoute: 'image' },
					credentials: { unifiedAiGatewayApi: { id: cred.id, name: cred.name } },
				};
				const created = (
					await restJson(n8n.baseUrl, 'POST', '/rest/workflows', { name: 'Trigger test event (ui)', nodes: [trigger], connections: {}, settings: {}, active: false }, cookie)
				).json;
				check(created && created.id, 'POST /rest/workflows returned no id for the trigger workflow');
				const tab = await ctx.newPage();
				try {
					await tab.goto(`${n8n.baseUrl}/workflow/${created.id}`, { waitUntil: 'domcontentloaded' });
					await tab.locator(`[data-test-id="canvas-node"][data-node-name="${trigger.name}"]`).dblclick({ timeout: 30000 });
					const panel = tab.getByTestId('ndv');
					const run = panel.getByTestId('node-execute-button').first();
					const label = (await run.innerText()).trim();
					check(/Fetch Test Event/i.test(label), `the trigger's run button says "${label}", not "Fetch Test Event"`);
					await run.click();
					const output = panel.getByTestId('output-panel');
					const outcome = await waitUntil(
						async () =>
							((await output.getByTestId('node-error-message').isVisible()) && 'error') ||
							((await output.getByTestId('ndv-run-data-display-mode').isVisible()) && 'data'),
						'the output panel shows neither data nor an error after "Fetch Test Event"',
						20000,
					);
					check(outcome === 'data', `n8n shows an error instead of the task; the output panel says:\n${(await output.innerText()).slice(0, 400)}`);
					const count = (await output.getByTestId('ndv-items-count').innerText()).trim();
					check(/^1 item\b/.test(count), `the output panel says "${count}", expected 1 item`);
					await output.getByTestId('ndv-run-data-display-mode').getByText('JSON', { exact: true }).click();
					const shown = await waitUntil(async () => {
						const text = (await output.getByTestId('ndv-data-container').innerText()).replace(/\s+/g, ' ');
						return text.includes(`"taskId": "${taskId}"`) ? text : false;
					}, `the output panel does not show task ${taskId}`);
					for (const want of [/"state": "succeeded"/, /"status": "(completed|succeeded)"/, /"url": "http:\/\/127\.0\.0\.1:\d+\/files\/[^"]+\.png"/]) {
						check(want.test(shown), `the output does not show ${want}; it shows: ${shown.slice(0, 600)}`);
					}
					check(sim.count('GET', queryPath) >= 1, `the simulator recorded no GET ${queryPath} from n8n`);
					const shot = await screenshot(panel, 'trigger-fetch-test-event.png');
					console.log(`      screenshot ${path.relative(REPO, shot)}`);
				} catch (e) {
					fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
					await tab.screenshot({ path: path.join(ARTIFACTS_DIR, 'trigger-tab.png'), timeout: 5000 }).catch(() => {});
					throw e;
				} finally {
					await tab.close();
				}
			},
			[OPEN],
		);

		await test('the editor threw no uncaught exceptions', async () => {
			check(!state.pageErrors.length, `uncaught page errors:\n${state.pageErrors.map((x) => `${x.message} (${x.url})`).join('\n')}`);
		});
	} catch (e) {
		const msg = errorText(e);
		console.log(`FAIL setup: ${msg.split('\n')[0]}`);
		const rest = msg.split('\n').slice(1).join('\n').trim();
		if (rest) console.log(rest.replace(/^/gm, '      '));
		results.push({ name: 'setup', ok: false });
	} finally {
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
		if (browser) await browser.close().catch(() => {});
		if (n8n) {
			if (results.some((r) => !r.ok)) {
				try {
					fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
					fs.copyFileSync(n8n.logFile, path.join(ARTIFACTS_DIR, 'n8n-start.log'));
					console.log(`      n8n log: ${path.relative(REPO, path.join(ARTIFACTS_DIR, 'n8n-start.log'))}`);
				} catch {
					// no log
				}
			}
			await n8n.stop().catch(() => {});
		}
		if (sim) await sim.close().catch(() => {});
		if (process.env.UI_KEEP === '1') console.log(`kept temp folder ${tmpRoot}`);
		else fs.rmSync(tmpRoot, { recursive: true, force: true });
	}
	const passed = results.filter((r) => r.ok).length;
	const failed = results.length - passed;
	console.log(`ui test finished in ${((Date.now() - started) / 1000).toFixed(1)}s`);
	console.log(`${passed} passed, ${failed} failed`);
	return failed || !passed ? 1 : 0;
}

/** An error's message without the API key, trimmed of Playwright's call log noise. */
function errorText(e) {
	const msg = e && e.message ? e.message : String(e);
	return e2e.redact(msg.replace(/\u001b\[[0-9;]*m/g, '')).replace(new RegExp(WRONG_KEY, 'g'), '***');
}

if (require.main === module) e2e.runAsScript(main);

module.exports = { main };
