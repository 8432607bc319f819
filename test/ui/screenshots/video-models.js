'use strict';
/*
 * Video → Generate with Seedance 2.5, then Veo, then Seedance 2.0: each model shows exactly the fields of
 * its registry row (and its lists offer the row's values), the previous model's fields go away.
 * One screenshot per model for the README.
 */

const editor = require('../editor');
const { videoExpectation } = require('../registry');
const { check, waitUntil, list } = require('../session');
const { chain } = require('./workflows');

const MODELS = [
	{ id: 'doubao-seedance-2-5-260628', shot: 'video-generate-seedance-2-5.png' },
	{ id: 'veo-3.1-flash', shot: 'video-generate-veo.png' },
	{ id: 'seedance-2.0', shot: 'video-generate-seedance.png' },
];
const NODE = 'Generate a video';

/**
 * The video fields shown now: parameters named video* that the registry could make (not the fixed
 * ones), by the body key's base name (a later variant of a key adds `_` and a tag: videoDuration_seedance20).
 */
const FIXED = new Set(['videoRoute', 'videoReferenceUrls', 'videoReferenceBinaryProperties', 'videoAdditionalBody', 'videoAllowUnusualValues']);
const registryFieldsShown = (params) =>
	editor
		.topLevel(params)
		.filter((p) => /^video[A-Z]/.test(p.name) && !FIXED.has(p.name))
		.map((p) => ({ ...p, base: p.name.replace(/_.*$/, '') }));

async function videoWorkflow(env) {
	const parameters = { resource: 'video', operation: 'generate', prompt: 'A paper boat drifting down a rainy street, close-up, slow camera pan' };
	return env.createWorkflow(chain('Video models (ui)', env.packageName, await env.credential(), [{ name: NODE, parameters }]));
}

async function showsModel(page, env, model, previous) {
	await editor.setModelById(page, model.id);
	const expected = videoExpectation(env.packageDir, model.id).fields;
	const wanted = expected.map((f) => f.name).sort();
	const shown = await waitUntil(async () => {
		const names = registryFieldsShown(await editor.shownParameters(page)).map((p) => p.base);
		return JSON.stringify([...new Set(names)].sort()) === JSON.stringify(wanted) ? names : false;
	}, `${model.id}: the video fields are not the registry's ${list(wanted)}`).catch(async (e) => {
		const now = registryFieldsShown(await editor.shownParameters(page)).map((p) => `${p.name} (${p.label})`);
		throw new Error(`${e.message.split(' (last')[0]}; shown: ${list(now)}`);
	});
	const params = registryFieldsShown(await editor.shownParameters(page));
	for (const f of expected) {
		const p = params.find((x) => x.base === f.name);
		check(p.label === f.label, `${model.id}: field ${f.name} is labelled "${p.label}", the registry says "${f.label}"`);
	}
	if (previous) {
		const gone = videoExpectation(env.packageDir, previous).fields.filter((f) => !wanted.includes(f.name) && shown.includes(f.name));
		check(!gone.length, `${model.id}: ${previous}'s fields ${list(gone.map((f) => f.label))} are still shown`);
	}
	// The first list of the row offers exactly the registry's values.
	const first = expected.find((f) => f.values);
	if (first) {
		const parameter = params.find((x) => x.base === first.name).name;
		const current = await editor.selectedValue(page, parameter);
		const select = await editor.openSelect(page, editor.parameterInput(page, parameter));
		await select.pick(select.names.includes(current) ? current : select.names[0]); // closes the list, value kept
		check(JSON.stringify(select.names) === JSON.stringify(first.values), `${model.id}: ${first.label} offers ${list(select.names)}, the registry says ${list(first.values)}`);
	}
	await env.shotParameters(page, model.shot, 'modelId', expected.map((f) => params.find((x) => x.base === f.name).name));
}

async function run(session, env) {
	const name = `Video → Generate shows each model's own fields: ${MODELS.map((m) => m.id).join(', ')}`;
	await session.test(
		name,
		async () => {
			const id = await videoWorkflow(env);
			const tab = await env.newTab();
			try {
				await editor.openWorkflow(tab, env.baseUrl, id);
				await editor.openNode(tab, NODE);
				let previous;
				for (const model of MODELS) {
					await showsModel(tab, env, model, previous);
					previous = model.id;
				}
			} catch (e) {
				await env.session.capture('video models', tab);
				throw e;
			} finally {
				await tab.close();
			}
		},
		[env.OPEN],
	);
}

module.exports = { run };
