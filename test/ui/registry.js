'use strict';
/*
 * What the node's form must show for a model, read from the built registry in dist/ (so a new
 * registry row needs no change in the UI test). Written apart from the package's own field
 * builder (params/registryProperties.ts) on purpose: a bug there shows up as a difference here.
 */

const fs = require('fs');
const path = require('path');

const { check } = require('./session');

function loadRows(packageDir, file, name) {
	const full = path.join(packageDir, 'dist', 'nodes', 'UnifiedAiGateway', 'registry', file);
	check(fs.existsSync(full), `the model registry is not built (${full} missing)`);
	delete require.cache[require.resolve(full)];
	const rows = require(full)[name];
	check(Array.isArray(rows), `${full} exports no ${name} array`);
	return rows;
}

/** A rule's label: its own, else the key's last part in Title Case (as the registry documents). */
function ruleLabel(key, rule) {
	if (rule.label) return rule.label;
	const last = key.split('.').pop();
	return last
		.split(/_|(?=[A-Z])/)
		.filter(Boolean)
		.map((w) => w.charAt(0).toUpperCase() + w.slice(1))
		.join(' ');
}

/** How an option value is shown in a list: file formats in capitals, else each word capitalised. */
function optionLabel(value) {
	const text = String(value);
	if (['png', 'jpeg', 'webp', 'url'].includes(text)) return text.toUpperCase();
	return text
		.split('_')
		.map((w) => w.charAt(0).toUpperCase() + w.slice(1))
		.join(' ');
}

/**
 * An image model (main host) for an operation: { fields: labels of the rules that are fields of
 * their own (a default, more than one value), options: labels of the rules without a default
 * (entries of the "Model Options" collection) }. As described in registry/imageModels.ts.
 */
function imageExpectation(packageDir, modelId, operation) {
	const rows = loadRows(packageDir, 'imageModels.js', 'IMAGE_MODELS');
	const row = rows.find((m) => m.id === modelId && m.host !== 'alt') || rows.find((m) => m.id === modelId);
	check(row, `the registry has no image row for ${modelId}`);
	const rules = Object.entries((row.fields && row.fields[operation]) || {});
	const fixed = (r) => Array.isArray(r.values) && r.values.length === 1 && r.default !== undefined;
	return {
		fields: rules.filter(([, r]) => r.default !== undefined && !fixed(r)).map(([k, r]) => ruleLabel(k, r)),
		options: rules.filter(([, r]) => r.default === undefined).map(([k, r]) => ruleLabel(k, r)),
	};
}

/**
 * A video model on a route: { fields: [{ name, label, values }] } for every rule of the row that
 * applies on the route (video has no Options collection: each rule is a field). `name` is the
 * node parameter: 'video' + the key's words (metadata.durationSeconds → videoMetadataDurationSeconds);
 * `values` the option labels of a list (with "Channel Default (Not Sent)" first when the rule can be
 * left out), else undefined.
 */
function videoExpectation(packageDir, modelId, route = 'unified') {
	const rows = loadRows(packageDir, 'videoModels.js', 'VIDEO_MODELS');
	const row = rows.find((m) => m.id === modelId);
	check(row, `the registry has no video row for ${modelId}`);
	const rules = Object.entries((row.fields && row.fields.video) || {}).filter(([, r]) => !r.routes || r.routes.includes(route));
	const words = (key) => key.split(/[._]|(?=[A-Z])/).filter(Boolean);
	return {
		fields: rules.map(([key, rule]) => ({
			name: `video${words(key)
				.map((w) => w.charAt(0).toUpperCase() + w.slice(1))
				.join('')}`,
			label: ruleLabel(key, rule),
			values: Array.isArray(rule.values)
				? [...(rule.omit !== undefined ? ['Channel Default (Not Sent)'] : []), ...rule.values.filter((v) => v !== rule.omit).map(optionLabel)]
				: undefined,
		})),
	};
}

module.exports = { imageExpectation, videoExpectation, ruleLabel, optionLabel };
