#!/usr/bin/env node
'use strict';
/*
 * `npm run test:mutation [-- <layer or file>…]`: Stryker over the pure layers (layers.js), one
 * target per run (its own sandbox, reports and incremental file in reports/mutation/<name>/): a
 * layer (`params`), or one source file of it (`params/inputs`: a run that ends within the hour,
 * where a layer takes many on the 2-core machine). Then the score of every layer from the reports
 * it has (its own, and its files' where newer, file by file) and each surviving mutant, one line
 * each, as docs/DEVELOPMENT.md ("Mutation testing") quotes them. `-- --report` prints the scores of
 * the reports there, running nothing. A later run re-tests only what changed (Stryker's
 * incremental mode). `--quick` (or `--quick=N`): with the quick ones of the layer's tests only
 * (or those of at most N seconds; layers.js testsOf), a run of minutes where all of them take
 * hours; its score a lower bound, named so in the summary. `--survivors-again`: the survivors
 * tested again, the other results reused (forgetSurvivors).
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { LAYERS, targetOf, testsOf, quickOf } = require('./layers');
const { walk } = require('../build-current');
const { QUICK_SECONDS } = require('../quick');

const ROOT = path.resolve(__dirname, '../..');
const REPORTS = path.join(ROOT, 'reports', 'mutation');
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
	const { layer, unit, mutate } = targetOf(target);
	if (again) console.log(`${forgetSurvivors(`${targetOf(target).name}${quick ? '-quick' : ''}`)} survivors of ${target} to test again`);
	if (unit && !fs.existsSync(path.join(ROOT, mutate))) throw new Error(`no file ${mutate} (built from nodes/UnifiedAiGateway/${unit}.ts)`);
	console.log(`\n== ${target}: Stryker on ${mutate}, tests ${testsOf(layer, quick).join(', ')}${quick ? ` (--quick: those of at most ${quick === true ? QUICK_SECONDS : quick} s, a lower bound)` : ''}`);
	const stryker = path.join(ROOT, 'node_modules', '.bin', 'stryker');
	const env = { ...process.env, MUTATION_TARGET: target, MUTATION_QUICK: quick ? String(quick) : '' };
	const result = spawnSync(stryker, ['run', 'test/mutation/stryker.config.mjs'], { cwd: ROOT, stdio: 'inherit', env });
	if (result.status !== 0) throw new Error(`Stryker failed on ${target} (exit ${result.status ?? result.signal})`);
}

/**
 * A layer's mutants, file by file, from the newest report that covers each file: the layer's own
 * run, or a run of that one file, with all its tests or (`-quick`) the quick ones. `{ files:
 * {file: {source, mutants}}, quick: Set of the files whose newest report is a quick run, missing:
 * [dist files no report covers] }`.
 */
function layerReport(layer) {
	const reports = fs.existsSync(REPORTS) ? fs.readdirSync(REPORTS) : [];
	const prefix = targetOf(layer).name;
	const found = reports
		.filter((dir) => dir === prefix || dir.startsWith(`${prefix}-`))
		.map((dir) => path.join(REPORTS, dir, 'mutation.json'))
		.filter((file) => fs.existsSync(file))
		.map((file) => ({ mtime: fs.statSync(file).mtimeMs, quick: path.basename(path.dirname(file)).endsWith('-quick'), report: JSON.parse(fs.readFileSync(file, 'utf8')) }))
		.sort((a, b) => a.mtime - b.mtime);
	const files = {};
	const quick = new Set();
	for (const { report, quick: isQuick } of found) {
		for (const [file, data] of Object.entries(report.files)) {
			files[file] = data;
			if (isQuick) quick.add(file);
			else quick.delete(file);
		}
	}
	const built = [];
	walk(ROOT, `dist/nodes/UnifiedAiGateway/${layer}`, built);
	const all = built.filter((file) => file.endsWith('.js'));
	// A file of another layer whose name starts the same (engine/spend vs engine/spendX) is not this one's.
	for (const file of Object.keys(files)) if (!file.startsWith(`dist/nodes/UnifiedAiGateway/${layer}/`)) delete files[file];
	return { files, quick: [...quick].filter((file) => files[file]).sort(), missing: all.filter((file) => !files[file]).sort() };
}

/**
 * Each surviving mutant (and each no test runs): `{ file, line, status, what }`, file being the
 * source's path under nodes/UnifiedAiGateway/ (`transport/urls.ts`), line the built file's, what
 * the mutation as printed (`Regex /:$/ → /:/`).
 */
function survivorsOf(report) {
	const found = [];
	for (const [file, { source, mutants }] of Object.entries(report.files)) {
		const ts = file.replace(/^dist\/nodes\/UnifiedAiGateway\//, '').replace(/\.js$/, '.ts');
		const text = source.split('\n');
		for (const m of mutants.filter((x) => x.status === 'Survived' || x.status === 'NoCoverage')) {
			const { start, end } = m.location;
			const original = start.line === end.line ? text[start.line - 1].slice(start.column - 1, end.column - 1) : `${text[start.line - 1].slice(start.column - 1)}…`;
			const short = (s) => (s.length > 70 ? `${s.slice(0, 67)}…` : s).replace(/\s+/g, ' ');
			found.push({ file: ts, line: start.line, status: m.status, what: `${m.mutatorName} ${short(original)} → ${short(m.replacement ?? '')}` });
		}
	}
	return found;
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
	for (const layer of layers) {
		const report = layerReport(layer);
		if (!Object.keys(report.files).length) {
			rows.push(`${layer}: no report yet (npm run test:mutation -- ${layer}, or one file: -- ${layer}/<file>)`);
			continue;
		}
		const all = Object.values(report.files).flatMap((f) => f.mutants);
		const count = (set) => all.filter((m) => set.has(m.status)).length;
		const by = (status) => all.filter((m) => m.status === status).length;
		const detected = count(DETECTED);
		const counted = count(COUNTED);
		totals.detected += detected;
		totals.counted += counted;
		totals.layers.push(layer);
		const unmeasured = report.missing.length ? `; not measured yet: ${report.missing.map((f) => path.basename(f, '.js')).join(', ')}` : '';
		const lowerBound = report.quick.length ? `; with the quick tests only, a lower bound: ${report.quick.map((f) => path.basename(f, '.js')).join(', ')}` : '';
		rows.push(
			`${layer}: ${counted ? ((100 * detected) / counted).toFixed(1) : '-'} % (${by('Killed')} killed, ${by('Timeout')} timed out, ${by('Survived')} survived, ${by('NoCoverage')} without a test; ${by('Ignored')} ignored: run only while a module loads${lowerBound}${unmeasured})`,
		);
		survivors.push(...survivorsOf(report));
		for (const [file, { mutants }] of Object.entries(report.files).sort()) {
			const n = (status) => mutants.filter((m) => m.status === status).length;
			const fileCounted = mutants.filter((m) => COUNTED.has(m.status)).length;
			const fileDetected = mutants.filter((m) => DETECTED.has(m.status)).length;
			const name = file.replace(/^dist\/nodes\/UnifiedAiGateway\//, '').replace(/\.js$/, '.ts');
			files.push(`| \`${name}\`${report.quick.includes(file) ? ' (quick)' : ''} | ${fileCounted ? ((100 * fileDetected) / fileCounted).toFixed(1) : '-'} % | ${n('Killed')} | ${n('Timeout')} | ${n('Survived')} | ${n('NoCoverage')} | ${n('Ignored')} |`);
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
	const stale = explained.filter((e) => !used.has(e) && layers.some((l) => e[0].startsWith(`${l}/`)));
	if (stale.length) {
		console.log('\nLines of explained/ that match no survivor (killed since, or the mutation moved: remove or mend them):');
		for (const [file, part, why, line] of stale) console.log(`  ${file}${line ? ` (dist line ${line})` : ''}: ${part}${measuredFiles.has(file) ? '' : ' (no survivor left in the file)'} | ${why}`);
	}
	console.log('\nPer file (the newest report of each; quick: with the quick tests only, a lower bound):\n');
	console.log('| file | score | killed | timed out | survived | no test runs it | ignored |');
	console.log('|---|---|---|---|---|---|---|');
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
	if (!args.includes('--report')) {
		require('../build-current').ensureCurrent();
		for (const target of chosen.length ? chosen : layers) runTarget(target, quickOf(args.find((a) => a === '--quick' || a.startsWith('--quick='))), args.includes('--survivors-again'));
	}
	summary(args.includes('--report') && !chosen.length ? Object.keys(LAYERS) : layers);
}

try {
	main(process.argv.slice(2));
} catch (error) {
	console.error(error.message);
	process.exitCode = 1;
}
