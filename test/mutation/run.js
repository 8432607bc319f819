#!/usr/bin/env node
'use strict';
/*
 * `npm run test:mutation [-- <layer>…]`: Stryker over the pure layers (layers.js), one layer per
 * run (its own sandbox, reports and incremental file in reports/mutation/<layer>/), then the score
 * of every layer that has a report and each surviving mutant, one line each, as docs/DEVELOPMENT.md
 * ("Mutation testing") quotes them. `-- --report` prints the score of the reports there, running
 * nothing. A later run re-tests only what changed (Stryker's incremental mode).
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { LAYERS } = require('./layers');

const ROOT = path.resolve(__dirname, '../..');
const reportOf = (layer) => path.join(ROOT, 'reports', 'mutation', layer.replace('/', '-'), 'mutation.json');
const DETECTED = new Set(['Killed', 'Timeout']);
const COUNTED = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);

function runLayer(layer) {
	console.log(`\n== ${layer}: Stryker on dist/nodes/UnifiedAiGateway/${layer}, tests ${LAYERS[layer].join(', ')}`);
	const stryker = path.join(ROOT, 'node_modules', '.bin', 'stryker');
	const result = spawnSync(stryker, ['run', 'test/mutation/stryker.config.mjs'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, MUTATION_LAYER: layer } });
	if (result.status !== 0) throw new Error(`Stryker failed on ${layer} (exit ${result.status ?? result.signal})`);
}

/** One line per surviving mutant: the source file, its line in the built file, the mutation. */
function survivorLines(report) {
	const lines = [];
	for (const [file, { source, mutants }] of Object.entries(report.files)) {
		const ts = file.replace(/^dist\//, '').replace(/\.js$/, '.ts');
		const text = source.split('\n');
		for (const m of mutants.filter((x) => x.status === 'Survived' || x.status === 'NoCoverage')) {
			const { start, end } = m.location;
			const original = start.line === end.line ? text[start.line - 1].slice(start.column - 1, end.column - 1) : `${text[start.line - 1].slice(start.column - 1)}…`;
			const short = (s) => (s.length > 70 ? `${s.slice(0, 67)}…` : s).replace(/\s+/g, ' ');
			lines.push(`${ts} (dist line ${start.line}) ${m.status === 'NoCoverage' ? 'no test runs it' : 'survived'}: ${m.mutatorName} ${short(original)} → ${short(m.replacement ?? '')}`);
		}
	}
	return lines;
}

function summary(layers) {
	const totals = { detected: 0, counted: 0 };
	const rows = [];
	const survivors = [];
	for (const layer of layers) {
		const file = reportOf(layer);
		if (!fs.existsSync(file)) {
			rows.push(`${layer}: no report yet (npm run test:mutation -- ${layer})`);
			continue;
		}
		const report = JSON.parse(fs.readFileSync(file, 'utf8'));
		const all = Object.values(report.files).flatMap((f) => f.mutants);
		const count = (set) => all.filter((m) => set.has(m.status)).length;
		const by = (status) => all.filter((m) => m.status === status).length;
		const detected = count(DETECTED);
		const counted = count(COUNTED);
		totals.detected += detected;
		totals.counted += counted;
		rows.push(
			`${layer}: ${((100 * detected) / counted).toFixed(1)} % (${by('Killed')} killed, ${by('Timeout')} timed out, ${by('Survived')} survived, ${by('NoCoverage')} without a test; ${by('Ignored')} ignored: run only while a module loads)`,
		);
		survivors.push(...survivorLines(report));
	}
	console.log('\nSurvivors:');
	for (const line of survivors) console.log(`  ${line}`);
	console.log('\nMutation score per layer:');
	for (const row of rows) console.log(`  ${row}`);
	if (totals.counted) console.log(`mutation score ${((100 * totals.detected) / totals.counted).toFixed(1)} % (${totals.detected} of ${totals.counted} mutants detected, layers: ${layers.join(', ')})`);
}

function main(args) {
	const chosen = args.filter((a) => !a.startsWith('--'));
	const unknown = chosen.filter((layer) => !LAYERS[layer]);
	if (unknown.length) throw new Error(`no layer ${unknown.join(', ')}; the layers are ${Object.keys(LAYERS).join(', ')}`);
	const layers = chosen.length ? chosen : Object.keys(LAYERS);
	if (!args.includes('--report')) {
		require('../build-current').ensureCurrent();
		for (const layer of layers) runLayer(layer);
	}
	summary(args.includes('--report') && !chosen.length ? Object.keys(LAYERS) : layers);
}

try {
	main(process.argv.slice(2));
} catch (error) {
	console.error(error.message);
	process.exitCode = 1;
}
