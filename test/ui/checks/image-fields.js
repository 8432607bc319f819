'use strict';
/*
 * Image → Generate built from the node creator, then the fields per model: gpt-image-2's ratio
 * sizes and Resolution, nano-banana without them and with its optional fields in "Model Options".
 * Expectations come from the registry in dist/ (registry.js).
 */

const editor = require('../editor');
const { imageExpectation } = require('../registry');
const { check, waitUntil, list } = require('../session');

const ADD = 'node creator adds "Unified AI Gateway", resource Image → operation Generate';
const GPT2 = 'gpt-image-2 shows its ratio sizes (16:9) and the Resolution field';
const NANO = 'nano-banana hides Resolution and shows its own fields';

async function addImageGenerate(page) {
	await editor.addNodeFromCreator(page, 'Unified AI Gateway', 'Generate images from a prompt');
	const resources = await editor.optionsOf(page, 'resource', 'Image');
	check(resources.includes('Image'), `the Resource field has no "Image" option; it offers ${list(resources)}`);
	await waitUntil(async () => (await editor.selectedValue(page, 'resource')) === 'Image', 'the Resource field does not show "Image"');
	const operations = await editor.optionsOf(page, 'operation', 'Generate');
	check(operations.includes('Generate'), `the Operation field has no "Generate" option; it offers ${list(operations)}`);
	await waitUntil(async () => (await editor.selectedValue(page, 'operation')) === 'Generate', 'the Operation field does not show "Generate"');
	const shown = editor.labels(editor.topLevel(await editor.shownParameters(page)));
	check(shown.includes('Model') && shown.includes('Prompt'), `Image → Generate shows no Model and Prompt fields; shown: ${list(shown)}`);
}

async function gptImage2(page, env) {
	await editor.setModelById(page, 'gpt-image-2');
	const expected = imageExpectation(env.packageDir, 'gpt-image-2', 'generate');
	const params = await waitUntil(async () => {
		const p = editor.topLevel(await editor.shownParameters(page));
		return p.some((x) => x.label === 'Resolution') ? p : false;
	}, 'gpt-image-2: no "Resolution" field is shown').catch(async (e) => {
		throw new Error(`${e.message.split(' (last')[0]}; shown: ${list(editor.labels(editor.topLevel(await editor.shownParameters(page))))}`);
	});
	const shown = editor.labels(params);
	const sizeField = params.find((x) => x.name === 'size');
	check(sizeField, `gpt-image-2: no size field (parameter "size") is shown; shown: ${list(shown)}`);
	// The ratio list, open, for the docs; then choose 16:9.
	const sizeSelect = await editor.openSelect(page, editor.parameterInput(page, 'size'));
	const sizes = sizeSelect.names;
	check(sizes.includes('16:9'), `gpt-image-2: the ${sizeField.label} field has no option "16:9"; it offers ${list(sizes)}`);
	await env.shot(editor.nodeSettings(page), 'image-generate-gpt-image-2-ratios.png', { blur: false });
	await sizeSelect.pick('16:9');
	for (const ratio of ['1:1', '9:16', '21:9']) {
		check(sizes.includes(ratio), `gpt-image-2: the ${sizeField.label} field has no ratio "${ratio}"; it offers ${list(sizes)}`);
	}
	// docs/gateway-contract.md §4.4: gpt-image-2 takes pixel sizes too (its default is 1024x1024).
	check(sizes.includes('1024x1024'), `gpt-image-2: the ${sizeField.label} field has no pixel size 1024x1024; it offers ${list(sizes)}`);
	await waitUntil(async () => (await editor.selectedValue(page, 'size')) === '16:9', `gpt-image-2: choosing 16:9 in ${sizeField.label} did not stick`);
	const resolutionSelect = await editor.openSelect(page, editor.parameterInput(page, 'resolution'));
	const resolutions = resolutionSelect.names;
	for (const r of ['1k', '2k', '4k']) {
		check(resolutions.some((x) => x.toLowerCase().startsWith(r)), `gpt-image-2: Resolution has no "${r}"; it offers ${list(resolutions)}`);
	}
	const twoK = resolutions.find((x) => x.toLowerCase().startsWith('2k'));
	await resolutionSelect.pick(twoK);
	await waitUntil(async () => (await editor.selectedValue(page, 'resolution')) === twoK, `gpt-image-2: choosing "${twoK}" in Resolution did not stick`);
	const missing = expected.fields.filter((l) => !shown.includes(l));
	check(!missing.length, `gpt-image-2: the registry's fields ${list(missing)} are not shown; shown: ${list(shown)}`);
	await env.shot(editor.nodeSettings(page), 'image-generate-gpt-image-2.png');
}

async function nanoBanana(page, env) {
	await editor.setModelById(page, 'nano-banana');
	const expected = imageExpectation(env.packageDir, 'nano-banana', 'generate');
	const params = await waitUntil(async () => {
		const p = editor.topLevel(await editor.shownParameters(page));
		return p.some((x) => x.label === 'Resolution') ? false : p;
	}, 'nano-banana: the "Resolution" field is still shown');
	const shown = editor.labels(params);
	check(!params.some((x) => x.name === 'resolution'), `nano-banana: a resolution field is still shown; shown: ${list(shown)}`);
	// gpt-image-2's own fields (Aspect Ratio with its ratio list, Resolution, ...) must be gone.
	const gpt2 = imageExpectation(env.packageDir, 'gpt-image-2', 'generate');
	const leftOver = gpt2.fields.filter((l) => !expected.fields.includes(l) && shown.includes(l));
	check(!leftOver.length, `nano-banana: gpt-image-2's fields ${list(leftOver)} are still shown; shown: ${list(shown)}`);
	const missing = expected.fields.filter((l) => !shown.includes(l));
	check(!missing.length, `nano-banana: the registry's fields ${list(missing)} are not shown; shown: ${list(shown)}`);
	check(expected.options.length > 0, 'nano-banana: the registry row has no optional fields (expected Size)');
	check(shown.includes('Model Options'), `nano-banana: no "Model Options" collection is shown for its optional fields ${list(expected.options)}; shown: ${list(shown)}`);
	const added = await editor.addCollectionOption(page, 'imageOptions_nanoBanana', expected.options);
	check(added.path.startsWith('parameters.imageOptions_nanoBanana.'), `nano-banana: the added option is not inside the Options collection (${added.path})`);
	if (added.path === 'parameters.imageOptions_nanoBanana.size') {
		// nano-banana's Size offers ratios (others go in as an expression): 16:9 is picked.
		const input = editor.nodeParameters(page).locator('[data-parameter-path="parameters.imageOptions_nanoBanana.size"]');
		const sizeSelect = await editor.openSelect(page, input);
		check(sizeSelect.names.includes('16:9'), `nano-banana: Size has no option "16:9"; it offers ${list(sizeSelect.names)}`);
		await sizeSelect.pick('16:9');
		await waitUntil(async () => (await input.innerText()).includes('16:9') || (await input.locator('input').first().inputValue().catch(() => '')) === '16:9', 'nano-banana: choosing 16:9 in Size did not show');
	}
	await env.shot(editor.nodeSettings(page), 'image-generate-nano-banana.png');
}

/** Registers the checks; the page is left with the node panel open (the credential checks go on there). */
async function run(session, env) {
	const { page } = env;
	await session.test(ADD, () => addImageGenerate(page), [env.OPEN]);
	await session.test(GPT2, () => gptImage2(page, env), [ADD]);
	await session.test(NANO, () => nanoBanana(page, env), [ADD]);
	return { ADD };
}

module.exports = { run };
