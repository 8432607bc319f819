#!/usr/bin/env node
'use strict';
/*
 * What each model row offers is a published interface like the field names and defaults
 * (docs/DEVELOPMENT.md, "Parameter names"): the sizes, ratios, durations and other values a
 * model's fields list, which of them are sent always or only when added, the prices the estimates
 * use, the limits checked before a submit, the host and query route. test/registry-rows.lock.json
 * holds every row of the registry (registry/models.ts MODELS, and the rows an id without one gets)
 * as the built node has it; a change to any of it fails test/registry-rows.test.js, naming the
 * row, the place in it, the old and the new value, and the command that records a change made on
 * purpose. A new model is still one row: its row plus the lock this command writes.
 *
 *   node test/registry-rows.js            print what differs from the lock (exit 1 when anything does)
 *   node test/registry-rows.js --update   rewrite the lock from the built registry, on purpose
 */
const fs = require('node:fs');
const path = require('node:path');

const LOCK = path.join(__dirname, 'registry-rows.lock.json');
const HOW = 'If the change is on purpose (what users are offered: say so in CHANGELOG.md), run `node test/registry-rows.js --update` and commit the lock with it.';

/** A row's name in the lock and in a difference: `<group> <id> (<host>)`, unique per row. */
const rowName = (row) => `${row.group} ${row.id} (${row.host})`;

/**
 * The rows as the lock holds them: name → the row (plain data: the registry's rows hold no
 * functions), and the rows an id without one gets (`image (any other id)`: UNKNOWN_IMAGE_MODEL,
 * `video (any other id)`: UNKNOWN_VIDEO_MODEL) when `unknown` gives them.
 */
function currentRows(models, unknown = {}) {
	const rows = {};
	for (const row of models) {
		const name = rowName(row);
		if (rows[name]) throw new Error(`the registry has two rows named ${name}`);
		rows[name] = JSON.parse(JSON.stringify(row));
	}
	for (const [group, row] of Object.entries(unknown)) rows[`${group} (any other id)`] = JSON.parse(JSON.stringify(row));
	return rows;
}

/** Every row of the built registry, the unknown ids' included, from its modules as loaded. */
const registryRows = ({ models, images, videos }) => currentRows(models.MODELS, { image: images.UNKNOWN_IMAGE_MODEL, video: videos.UNKNOWN_VIDEO_MODEL });

const show = (value) => (value === undefined ? '(none)' : JSON.stringify(value));
const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `at: old → new` for each place two values differ, down to the first list or plain value. */
function placesDiffering(before, after, at, lines) {
	if (isRecord(before) && isRecord(after)) {
		for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) placesDiffering(before[key], after[key], `${at}.${key}`, lines);
	} else if (JSON.stringify(before) !== JSON.stringify(after)) lines.push(`${at.slice(1)}: ${show(before)} → ${show(after)}`);
}

/** What differs between the lock's rows and the current ones, one line per place, then HOW; [] when nothing does. */
function differences(lock, current) {
	const lines = [];
	for (const name of [...new Set([...Object.keys(lock), ...Object.keys(current)])].sort()) {
		if (!(name in current)) lines.push(`${name}: the row is gone from the registry`);
		else if (!(name in lock)) lines.push(`${name}: a new row, not in the lock`);
		else {
			const places = [];
			placesDiffering(lock[name], current[name], '', places);
			lines.push(...places.map((place) => `${name}: ${place}`));
		}
	}
	return lines.length ? [...lines, HOW] : [];
}

const readLock = () => JSON.parse(fs.readFileSync(LOCK, 'utf8')).rows;

function writeLock(rows) {
	const about = 'Every row of the model registry (registry/models.ts MODELS, and the rows an id without one gets) as the built node has it: what each model offers users. Written by `node test/registry-rows.js --update`; checked by test/registry-rows.test.js (docs/DEVELOPMENT.md, "Parameter names").';
	fs.writeFileSync(LOCK, `${JSON.stringify({ about, rows }, null, '\t')}\n`);
}

module.exports = { currentRows, registryRows, differences, readLock, LOCK, HOW };

if (require.main === module) {
	require('./build-current').ensureCurrent();
	const dist = (file) => require(`../dist/nodes/UnifiedAiGateway/registry/${file}.js`);
	const rows = registryRows({ models: dist('models'), images: dist('imageModels'), videos: dist('videoModels') });
	if (process.argv.includes('--update')) {
		writeLock(rows);
		console.log(`wrote ${path.relative(process.cwd(), LOCK)} (${Object.keys(rows).length} rows)`);
	} else {
		const lines = differences(readLock(), rows);
		console.log(lines.length ? lines.join('\n') : 'the registry matches test/registry-rows.lock.json');
		process.exitCode = lines.length ? 1 : 0;
	}
}
