#!/usr/bin/env node
'use strict';
/*
 * `npm run test:mutation [-- <layer or file>…]`: Stryker over the pure layers (layers.js), one
 * target per run (its own sandbox, reports and incremental file in reports/mutation/<name>/): a
 * layer (`params`), or one source file of it (`params/inputs`: a run that ends within the hour,
 * where a layer takes many on the 2-core machine), or several of one layer (`params/inputs+binaryInput`:
 * one initial test run for all of them). Then the score of every layer, file by file
 * from the newest result of each, and each surviving mutant, one line each, as
 * docs/DEVELOPMENT.md ("Mutation testing") quotes them. A later run re-tests only what changed
 * (Stryker's incremental mode). `--quick` (or `--quick=N`): with the quick ones of the layer's
 * tests only (or those of at most N seconds; layers.js testsOf), a run of minutes where all of
 * them take hours; its score a lower bound, named so in the summary. `--survivors-again`: the
 * survivors tested again, the other results reused (forgetSurvivors).
 * Each run's result, file by file, is also written to measured.json, which is committed:
 * reports/ goes with the machine, the record stays, so a fresh clone's `-- --report` (running
 * nothing) prints what was measured, when, and which files changed since. `-- --report --record`
 * folds this machine's reports into it first (for runs made before a runner that records).
 */
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { LAYERS, targetOf, testsOf, quickOf } = require('./layers');
const { walk } = require('../build-current');
const { QUICK_SECONDS } = require('../quick');

const ROOT = path.resolve(__dirname, '../..');
const REPORTS = path.join(ROOT, 'reports', 'mutation');
const RECORD = path.join(__dirname, 'measured.json');
const DETECTED = new Set(['Killed', 'Timeout']);
const COUNTED = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);

/**
 * `--survivors-again`: the target's survivors (and mutants no test ran) are dropped from its
 * incremental file, so Stryker tests them again and reuses every other result: for a change to
 * the runner (test/mutation/*.js) that Stryker's incremental mode does not see, as it sees a
 * changed source or test file.
 */
function forgetSurvivors(name) {
	const file = path.join(REPORTS, name, 'stryker-incremental.json');
	if (!fs.existsSync(file)) return 0;
	const report = JSON.parse(fs.readFileSync(file, 'utf8'));
	let dropped = 0;
	for (const entry of Object.values(report.files)) {
		const kept = entry.mutants.filter((m) => m.status !== 'Survived' && m.status !== 'NoCoverage');
		dropped += entry.mutants.length - kept.length;
		entry.mutants = kept;
	}
	fs.writeFileSync(file, JSON.stringify(report));
	return dropped;
}

function runTarget(target, quick, again) {
	const { layer, units, mutate } = targetOf(target);
	if (again) console.log(`${forgetSurvivors(`${targetOf(target).name}${quick ? '-quick' : ''}`)} survivors of ${target} to test again`);
	for (const unit of units ?? []) {
		const built = `dist/nodes/UnifiedAiGateway/${unit}.js`;
		if (!fs.existsSync(path.join(ROOT, built))) throw new Error(`no file ${built} (built from nodes/UnifiedAiGateway/${unit}.ts)`);
	}
	console.log(`\n== ${target}: Stryker on ${mutate}, tests ${testsOf(layer, quick).join(', ')}${quick ? ` (--quick: those of at most ${quick === true ? QUICK_SECONDS : quick} s, a lower bound)` : ''}`);
	const stryker = path.join(ROOT, 'node_modules', '.bin', 'stryker');
	const env = { ...process.env, MUTATION_TARGET: target, MUTATION_QUICK: quick ? String(quick) : '' };
	const result = spawnSync(stryker, ['run', 'test/mutation/stryker.config.mjs'], { cwd: ROOT, stdio: 'inherit', env });
	if (result.status !== 0) throw new Error(`Stryker failed on ${target} (exit ${result.status ?? result.signal})`);
}

const STATUSES = ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored', 'RuntimeError', 'CompileError'];
const shaOf = (text) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);

/**
 * One file's result as the record keeps it: `{ sha, at, quick, counts: {status: n}, survivors:
 * [[built line, status, what]] }`, sha being the built file's as mutated, what the mutation as
 * printed (`Regex /:$/ → /:/`).
 */
function measureOf({ source, mutants }, quick, at) {
	const counts = Object.fromEntries(STATUSES.map((status) => [status, mutants.filter((m) => m.status === status).length]));
	const text = source.split('\n');
	const short = (s) => (s.length > 70 ? `${s.slice(0, 67)}…` : s).replace(/\s+/g, ' ');
	const survivors = mutants
		.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
		.map((m) => {
			const { start, end } = m.location;
			const original = start.line === end.line ? text[start.line - 1].slice(start.column - 1, end.column - 1) : `${text[start.line - 1].slice(start.column - 1)}…`;
			return [start.line, m.status, `${m.mutatorName} ${short(original)} → ${short(m.replacement ?? '')}`];
		})
		.sort((a, b) => a[0] - b[0] || a[2].localeCompare(b[2]));
	return { sha: shaOf(source), at, quick, counts, survivors };
}

/** When a report was written, to the minute (UTC): what the record's `at` compares. */
const reportTime = (file) => new Date(fs.statSync(file).mtimeMs).toISOString().slice(0, 16);

/** A built file's source under nodes/UnifiedAiGateway/: dist/…/transport/urls.js → transport/urls.ts. */
const sourceOf = (dist) => dist.replace(/^dist\/nodes\/UnifiedAiGateway\//, '').replace(/\.js$/, '.ts');

const readRecord = () => (fs.existsSync(RECORD) ? JSON.parse(fs.readFileSync(RECORD, 'utf8')).files : {});

/** A run's files into measured.json, one line per file's counts and per survivor, so a diff reads. */
function record(name) {
	const file = path.join(REPORTS, name, 'mutation.json');
	if (!fs.existsSync(file)) return;
	const report = JSON.parse(fs.readFileSync(file, 'utf8'));
	const files = readRecord();
	const at = reportTime(file);
	for (const [dist, data] of Object.entries(report.files)) if (!(files[dist]?.at > at)) files[dist] = measureOf(data, name.endsWith('-quick'), at);
	const body = Object.keys(files)
		.sort()
		.map((dist) => {
			const { survivors, ...rest } = files[dist];
			const lines = survivors.map((s) => `\t\t\t${JSON.stringify(s)}`).join(',\n');
			return `\t\t${JSON.stringify(dist)}: ${JSON.stringify(rest).slice(0, -1)}, "survivors": [${lines ? `\n${lines}\n\t\t` : ''}]}`;
		});
	const note = 'npm run test:mutation: each file of the pure layers as last measured (run.js record()); sha is the built file mutated, at the report time (UTC), quick a run with the quick tests only';
	fs.writeFileSync(RECORD, `{\n\t"note": ${JSON.stringify(note)},\n\t"files": {\n${body.join(',\n')}\n\t}\n}\n`);
}

/**
 * A layer's results, file by file, the newest of: measured.json's, and this machine's reports (the
 * layer's own run, or a run of one file, with all its tests or (`-quick`) the quick ones). `{
 * files: {file: measure}, quick: [files whose newest is a quick run], changed: [files whose built
 * JavaScript differs from what was mutated], missing: [built files nothing covers] }`.
 */
function layerReport(layer) {
	const prefix = `dist/nodes/UnifiedAiGateway/${layer}/`;
	const files = {};
	for (const [file, measure] of Object.entries(readRecord())) if (file.startsWith(prefix)) files[file] = measure;
	const reports = fs.existsSync(REPORTS) ? fs.readdirSync(REPORTS) : [];
	const name = targetOf(layer).name;
	for (const dir of reports.filter((d) => d === name || d.startsWith(`${name}-`))) {
		const file = path.join(REPORTS, dir, 'mutation.json');
		if (!fs.existsSync(file)) continue;
		const at = reportTime(file);
		// A file of another layer whose name starts the same (engine/spend vs engine/spendX) is not this one's.
		for (const [dist, data] of Object.entries(JSON.parse(fs.readFileSync(file, 'utf8')).files)) {
			if (dist.startsWith(prefix) && !(files[dist]?.at > at)) files[dist] = measureOf(data, dir.endsWith('-quick'), at);
		}
	}
	const built = [];
	walk(ROOT, `dist/nodes/UnifiedAiGateway/${layer}`, built);
	const all = built.filter((file) => file.endsWith('.js'));
	const changed = Object.keys(files).filter((file) => !fs.existsSync(path.join(ROOT, file)) || shaOf(fs.readFileSync(path.join(ROOT, file), 'utf8')) !== files[file].sha);
	const quick = Object.keys(files).filter((file) => files[file].quick);
	return { files, quick: quick.sort(), changed: changed.sort(), missing: all.filter((file) => !files[file]).sort() };
}

/**
 * Each surviving mutant (and each no test runs): `{ file, line, status, what }`, file being the
 * source's path under nodes/UnifiedAiGateway/ (`transport/urls.ts`), line the built file's.
 */
function survivorsOf(files) {
	return Object.entries(files).flatMap(([file, { survivors }]) => {
		const ts = sourceOf(file);
		return survivors.map(([line, status, what]) => ({ file: ts, line, status, what }));
	});
}

/**
 * The line of explained/ that says why a survivor is left: the first whose file is the
 * survivor's, whose text is part of its mutation, and whose built line (when it names one) is its.
 */
function explanationOf(survivor, explained) {
	return explained.find(([file, part, , line]) => file === survivor.file && survivor.what.includes(part) && (line === undefined || line === survivor.line));
}

function summary(layers) {
	const explained = require('./explained');
	const totals = { detected: 0, counted: 0, layers: [] };
	const rows = [];
	const survivors = [];
	const files = [];
	const measured = new Set();
	for (const layer of layers) {
		const report = layerReport(layer);
		for (const file of Object.keys(report.files)) measured.add(sourceOf(file));
		if (!Object.keys(report.files).length) {
			rows.push(`${layer}: no report yet (npm run test:mutation -- ${layer}, or one file: -- ${layer}/<file>)`);
			continue;
		}
		const measures = Object.values(report.files);
		const by = (status) => measures.reduce((sum, m) => sum + (m.counts[status] ?? 0), 0);
		const count = (set) => [...set].reduce((sum, status) => sum + by(status), 0);
		const detected = count(DETECTED);
		const counted = count(COUNTED);
		totals.detected += detected;
		totals.counted += counted;
		totals.layers.push(layer);
		const names = (list) => list.map((f) => path.basename(f, '.js')).join(', ');
		const unmeasured = report.missing.length ? `; not measured yet: ${names(report.missing)}` : '';
		const lowerBound = report.quick.length ? `; with the quick tests only, a lower bound: ${names(report.quick)}` : '';
		const changed = report.changed.length ? `; changed since measured: ${names(report.changed)}` : '';
		rows.push(
			`${layer}: ${counted ? ((100 * detected) / counted).toFixed(1) : '-'} % (${by('Killed')} killed, ${by('Timeout')} timed out, ${by('Survived')} survived, ${by('NoCoverage')} without a test; ${by('Ignored')} ignored: run only while a module loads${lowerBound}${changed}${unmeasured})`,
		);
		survivors.push(...survivorsOf(report.files));
		for (const [file, { counts, at }] of Object.entries(report.files).sort()) {
			const n = (status) => counts[status] ?? 0;
			const fileCounted = [...COUNTED].reduce((sum, status) => sum + n(status), 0);
			const fileDetected = [...DETECTED].reduce((sum, status) => sum + n(status), 0);
			const name = sourceOf(file);
			const marks = [report.quick.includes(file) && 'quick', report.changed.includes(file) && 'changed since'].filter(Boolean);
			files.push(`| \`${name}\`${marks.length ? ` (${marks.join(', ')})` : ''} | ${at.slice(0, 10)} | ${fileCounted ? ((100 * fileDetected) / fileCounted).toFixed(1) : '-'} % | ${n('Killed')} | ${n('Timeout')} | ${n('Survived')} | ${n('NoCoverage')} | ${n('Ignored')} |`);
		}
	}
	const used = new Set();
	let unexplained = 0;
	console.log('\nSurvivors (why each is left: test/mutation/explained/):');
	for (const s of survivors) {
		const why = explanationOf(s, explained);
		if (why) used.add(why);
		else unexplained++;
		console.log(`  ${s.file} (dist line ${s.line}) ${s.status === 'NoCoverage' ? 'no test runs it' : 'survived'}: ${s.what}${why ? ` | ${why[2]}` : ' | NOT EXPLAINED'}`);
	}
	const measuredFiles = new Set(survivors.map((s) => s.file));
	// A line for a file with no result here is neither used nor stale: it waits for the file's run.
	const unused = explained.filter((e) => !used.has(e) && layers.some((l) => e[0].startsWith(`${l}/`)));
	const stale = unused.filter(([file]) => measured.has(file));
	if (stale.length) {
		console.log('\nLines of explained/ that match no survivor (killed since, or the mutation moved: remove or mend them):');
		for (const [file, part, why, line] of stale) console.log(`  ${file}${line ? ` (dist line ${line})` : ''}: ${part}${measuredFiles.has(file) ? '' : ' (no survivor left in the file)'} | ${why}`);
	}
	if (unused.length > stale.length) console.log(`\n${unused.length - stale.length} lines of explained/ are for files with no result here yet`);
	console.log('\nPer file (the newest result of each, measured.json or this machine\'s reports; quick: with the quick tests only, a lower bound; changed since: its built JavaScript is not what was mutated):\n');
	console.log('| file | measured | score | killed | timed out | survived | no test runs it | ignored |');
	console.log('|---|---|---|---|---|---|---|---|');
	for (const row of files) console.log(row);
	console.log('\nMutation score per layer:');
	for (const row of rows) console.log(`  ${row}`);
	console.log(`survivors ${survivors.length}, explained ${survivors.length - unexplained}, not explained ${unexplained}`);
	if (totals.counted) console.log(`mutation score ${((100 * totals.detected) / totals.counted).toFixed(1)} % (${totals.detected} of ${totals.counted} mutants detected, layers measured: ${totals.layers.join(', ')})`);
}

function main(args) {
	const chosen = args.filter((a) => !a.startsWith('--'));
	const targets = chosen.map((target) => ({ target, ...targetOf(target) }));
	const layers = chosen.length ? [...new Set(targets.map((t) => t.layer))] : Object.keys(LAYERS);
	// Built first for --report too: the record's hashes are compared with dist/ (changed since).
	require('../build-current').ensureCurrent();
	if (!args.includes('--report')) {
		const quick = quickOf(args.find((a) => a === '--quick' || a.startsWith('--quick=')));
		for (const target of chosen.length ? chosen : layers) {
			runTarget(target, quick, args.includes('--survivors-again'));
			record(`${targetOf(target).name}${quick ? '-quick' : ''}`);
		}
	}
	// `--record`: this machine's reports into measured.json, each file's newer result winning (a run records its own).
	if (args.includes('--record') && fs.existsSync(REPORTS)) for (const name of fs.readdirSync(REPORTS)) record(name);
	summary(args.includes('--report') && !chosen.length ? Object.keys(LAYERS) : layers);
}

try {
	main(process.argv.slice(2));
} catch (error) {
	console.error(error.message);
	process.exitCode = 1;
}
