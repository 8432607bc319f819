'use strict';
/*
 * The figures of each run, side by side per scenario (the package against the hand-built loop in
 * the same n8n, at the same poll interval), the targets, and the last line.
 *
 * Ideal wall time: the slowest task of the run + one poll interval (+ what a rate limit itself
 * imposes: the submits beyond its first burst, at its rate). Nobody can have every file sooner:
 * the slowest task must finish, and a poller that reads every interval sees it done at most one
 * interval later.
 */

const os = require('os');

const { INTERVAL_S } = require('./workflows');

const CORES = os.cpus().length;

/**
 * Issue targets: the package's wall within 5 % of ideal, no more reads per task than the loop at its
 * interval (both measured in the same n8n). Main's CPU against the loop's is reported, not a target
 * (issue 58: V8's collector decides it from run to run, PERFORMANCE.md *Main's CPU against the loop's*).
 */
const TARGETS = { wallOverIdeal: 1.05, queueWallOverIdeal: 1.1 };

const fmt = (n, d = 2) => (Number.isFinite(n) ? Number(n).toFixed(d) : '-');
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? fmt(a / b) : '-');

/** Peak RSS of each runner over its idle baseline (after start-up and the warm-up); the largest counts. */
function rssOver(run, baseline) {
	const byRunner = Object.entries(run.peaks || {}).map(([name, peak]) => ({ name, peak, mb: peak - baseline[name] }));
	return { byRunner, mb: Math.max(...byRunner.map((g) => g.mb)) };
}

/** The figures of one run, as the table shows them. */
function figures(run, baseline) {
	const bytes = run.executions.reduce((n, e) => n + e.bytes, 0);
	return {
		// A run whose executions did not all succeed has no wall time to compare: it gave up (or was stopped).
		wallOverIdeal: run.statuses.every((s) => s === 'success') ? run.wallMs / run.idealMs : NaN,
		readsPerTask: run.readsPerTask,
		readsPerImageTask: run.readsPerImageTask,
		readsPerVideoTask: run.readsPerVideoTask,
		requestsPerTask: run.requestsPerTask,
		mainCpu: run.mainCpu,
		kbPerItem: bytes / 1024 / Math.max(1, run.items),
		files: run.files,
		failed: run.failed,
		failedWithReason: run.failedWithReason,
		lost: run.lost,
		duplicates: run.duplicates,
		posts: run.posts,
		limited: run.limited,
		wallS: run.wallMs / 1000,
		rssOverMb: rssOver(run, baseline).mb,
	};
}

// [label, figure, decimals, whether loop ÷ package is shown]
const ROWS = [
	['wall ÷ ideal', 'wallOverIdeal', 2, true],
	['wall (s)', 'wallS', 1, true],
	['task reads per task', 'readsPerTask', 2, true],
	['  per image task', 'readsPerImageTask', 2, true],
	['  per video task', 'readsPerVideoTask', 2, true],
	['gateway requests per task', 'requestsPerTask', 2, true],
	['main CPU (s)', 'mainCpu', 1, true],
	['stored KB per item', 'kbPerItem', 2, true],
	['files out', 'files', 0],
	['failed items (no file)', 'failed', 0],
	['  of them out with a reason', 'failedWithReason', 0],
	['lost tasks', 'lost', 0],
	['double submits', 'duplicates', 0],
	['submit POSTs (429s)', 'posts', 0],
	['RSS peak over baseline (MB)', 'rssOverMb', 0],
];

const label = (run) => (run.side === 'package' ? 'package' : `loop${run.variant === 'plain' ? '' : ` ${run.variant}`}`);

/** One scenario's runs as a table: a column per run, and the first loop ÷ the package. */
function table(runs, baseline, log) {
	const cols = runs.map((r) => ({ name: label(r), f: figures(r, baseline), run: r }));
	const pkg = cols.find((c) => c.run.side === 'package');
	const loop = cols.find((c) => c.run.side === 'loop');
	const both = pkg && loop;
	const pad = (s, n) => String(s).padEnd(n);
	log(`  ${pad('figure', 30)}${cols.map((c) => pad(c.name, 14)).join('')}${both ? `${loop.name} ÷ package` : ''}`);
	for (const [name, key, d, shown] of ROWS) {
		const cells = cols.map((c) => pad(key === 'posts' ? `${c.f.posts} (${c.f.limited})` : fmt(c.f[key], d), 14)).join('');
		log(`  ${pad(name, 30)}${cells}${both && shown ? ratio(loop.f[key], pkg.f[key]) : ''}`);
	}
	const statuses = (run) => Object.entries(run.statuses.reduce((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {})).map(([s, n]) => `${n} ${s}`).join(', ');
	log(`  ${pad('executions', 30)}${cols.map((c) => pad(statuses(c.run) + (c.run.stoppedByBench ? ' (stopped)' : ''), 14)).join('')}`);
}

const since = (run, phase) => fmt((run.phases[phase] - run.started) / 1000, 1);

/** What a run did, beyond the table: timeline, CPU, RSS, each execution. */
function details(run, baseline, log, heapCapMb) {
	const rss = rssOver(run, baseline);
	const base = run.relayMs !== undefined
		? `the last record to show its end ${fmt(run.relayMs / 1000, 1)} s`
		: `slowest task of the plan ${fmt(run.slowestMs / 1000, 1)} s`;
	const limit = run.limitMs ? ` + ${fmt(run.limitMs / 1000, 1)} s the limit imposes` : '';
	log(
		`  ${run.run} (${label(run)}): wall ${fmt(run.wallMs / 1000, 1)} s, ideal ${fmt(run.idealMs / 1000, 1)} s = ` +
			`${base} + interval ${INTERVAL_S} s${limit}; ${run.created} tasks created for ${run.items} items, ` +
			`${run.failedTasks} failed at the gateway, ${run.failedWithReason} items out with a reason`,
	);
	// What the reads and downloads add after the gateway's work: the last task done (its submit came when it came) + one interval.
	const afterSubmits = run.phases.lastTask - run.started + INTERVAL_S * 1000;
	log(`    after the submits: the last task was done at ${fmt((run.phases.lastTask - run.started) / 1000, 1)} s; wall ÷ (that + interval) = ${fmt(run.wallMs / afterSubmits)}`);
	log(`    timeline (s from the webhook POSTs): submits ${since(run, 'submitsFrom')}-${since(run, 'submitsTo')}, last task done ${since(run, 'lastTask')}, downloads ${since(run, 'downloadsFrom')}-${since(run, 'downloadsTo')}, ended ${fmt(run.wallMs / 1000, 1)}`);
	const cpuTotal = Object.values(run.cpu).reduce((a, b) => a + b, 0);
	log(`    cpu seconds: ${Object.entries(run.cpu).map(([name, s]) => `${name} ${fmt(s, 1)}`).join(', ')} (together ${fmt(cpuTotal, 1)} s: on ${CORES} cores no run of this work ends before ${fmt(cpuTotal / CORES, 1)} s); rss: ${rss.byRunner.map((g) => `${g.name} peak ${fmt(g.peak, 0)} MB (+${fmt(g.mb, 0)})`).join(', ')}`);
	// The pauses Node reports to n8n's /metrics; the marking V8 does between them (on the main thread
	// in steps, and on helper threads) is not in that figure, only in main's CPU.
	if (run.v8) log(`    V8 in main (n8n's /metrics, read every 2 s): garbage-collection pauses ${fmt(run.v8.gcS, 1)} s (of main's ${fmt(run.mainCpu, 1)} s CPU), ${fmt(run.v8.majorGcs, 0)} full collections; heap in use at most ${fmt(run.v8.heapPeakMb, 0)} MB${heapCapMb ? ` of the ${heapCapMb} MB cap` : ''}; V8 held ${fmt(run.v8.committedStartMb, 0)} MB for it at the start, ${fmt(run.v8.committedPeakMb, 0)} MB at most`);
	whereTheTimeGoes(run, log);
	for (const e of run.executions) {
		log(`    execution ${e.id} (${e.kind}s): ${e.status}, ${e.items} items, ${e.files} files, ${e.failed} failed; stored ${fmt(e.bytes / 1024, 0)} KB = ${fmt(e.kbPerItem)} KB/item, binaries: ${e.binaries.byReference} by reference (${e.binaries.modes.join(', ') || 'none'})${e.binaries.inline ? ', SOME INLINE' : ''}`);
	}
}

const quantiles = (list) => {
	const sorted = [...list].filter(Number.isFinite).sort((a, b) => a - b);
	const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
	return sorted.length ? `mean ${fmt(sorted.reduce((a, b) => a + b, 0) / sorted.length / 1000)} p50 ${fmt(q(0.5) / 1000)} p90 ${fmt(q(0.9) / 1000)} max ${fmt(sorted[sorted.length - 1] / 1000)} s` : '-';
};

/**
 * Where the time after the gateway's work goes, per task: its end → the read that found it done
 * (read lag) → its file fetched (download); the tasks that end the run read by read; the largest
 * burst of tasks found done in one second; per batch of items (one execution each), its last
 * task done, found and downloaded.
 */
function whereTheTimeGoes(run, log) {
	const done = run.tasks.filter((t) => t.outcome === 'completed' && t.foundAt !== undefined);
	if (!done.length) return;
	const s = (at) => fmt((at - run.started) / 1000, 1);
	const lags = done.map((t) => t.foundAt - (t.shownAt ?? t.finishedAt));
	log(`    read lag (task end, behind a relay its record showing it → the read that found it): ${quantiles(lags)}`);
	log(`    download (found → file fetched): ${quantiles(done.filter((t) => t.downloadedAt).map((t) => t.downloadedAt - t.foundAt))}`);
	const perSecond = new Map();
	for (const t of done) perSecond.set(Math.floor((t.foundAt - run.started) / 1000), (perSecond.get(Math.floor((t.foundAt - run.started) / 1000)) ?? 0) + 1);
	const [burstAt, burst] = [...perSecond].sort((a, b) => b[1] - a[1])[0];
	log(`    most tasks found done in one second: ${burst} (at ${burstAt}-${burstAt + 1} s)`);
	const ends = (key) => [...done].sort((a, b) => (b[key] ?? 0) - (a[key] ?? 0)).slice(0, 3);
	for (const t of new Set([...ends('finishedAt'), ...ends('downloadedAt')])) {
		const reads = t.readsAt.map((at) => `${(at - t.finishedAt) / 1000 >= 0 ? '+' : ''}${fmt((at - t.finishedAt) / 1000, 2)}`).join(' ');
		const shown = t.visibleAt ? `, its record showed it at ${s(t.visibleAt)} s` : '';
		log(
			`    task ${t.prompt}: submitted ${s(t.createdAt)} s, took ${fmt(t.durationMs / 1000)} s, ` +
				`done ${s(t.finishedAt)} s, reads at (s from its end) ${reads}${shown}, found ${s(t.foundAt)} s, ` +
				`file by ${t.downloadedAt ? s(t.downloadedAt) : '-'} s`,
		);
	}
	// The scale run's executions: each took the next `each` prompts (bench/n8n/run.js `from`).
	if (run.scenario !== 'scale') return;
	const each = Math.max(1, Math.round(run.items / Math.max(1, run.executions.length)));
	const batches = new Map();
	for (const t of done) {
		const n = Number(/(\d+)$/.exec(t.prompt)?.[1]);
		const key = `${t.kind}s ${Math.floor(n / each) * each}-${Math.floor(n / each) * each + each - 1}`;
		batches.set(key, [...(batches.get(key) ?? []), t]);
	}
	for (const [key, list] of batches) {
		const last = (k) => s(Math.max(...list.map((t) => t[k] ?? 0)));
		log(`    batch ${key}: last task done ${last('finishedAt')} s, last found ${last('foundAt')} s, last file ${last('downloadedAt')} s; read lag ${quantiles(list.map((t) => t.foundAt - t.finishedAt))}; download ${quantiles(list.filter((t) => t.downloadedAt).map((t) => t.downloadedAt - t.foundAt))}`);
	}
}

/**
 * Prints every scenario (runs grouped by run.scenario) and the last line; returns the exit code
 * (1 when a target is missed, each one said). Options: heapCapMb; queue (main only takes the
 * webhooks: no CPU target); queueScale (the --items run and its bench-n8n-queue line).
 */
function report(runs, baseline, { heapCapMb, queue, queueScale } = {}, log = console.log) {
	const scenarios = [...new Set(runs.map((r) => r.scenario))];
	for (const s of scenarios) {
		const group = runs.filter((r) => r.scenario === s);
		log('');
		log(`scenario ${s}: ${group[0].describe}`);
		table(group, baseline, log);
		for (const r of group) details(r, baseline, log, heapCapMb);
	}
	log('');
	const missed = [];
	const dup = runs.filter((r) => r.side === 'package').reduce((n, r) => n + r.duplicates, 0);
	if (queueScale) {
		const run = runs.find((r) => r.scenario === 'scale');
		const f = figures(run, baseline);
		if (f.wallOverIdeal > TARGETS.queueWallOverIdeal) missed.push(`wall_over_ideal ${fmt(f.wallOverIdeal)} > ${TARGETS.queueWallOverIdeal}`);
		if (run.failed) missed.push(`failed ${run.failed}`);
		if (dup) missed.push(`duplicate_submits ${dup}`);
		log(missed.length ? `MISSED: ${missed.join('; ')}` : 'all targets met');
		const workers = rssOver(run, baseline).byRunner.map((g) => `${g.name}:${fmt(g.peak, 0)}`).join(',');
		const afterSubmits = run.wallMs / (run.phases.lastTask - run.started + INTERVAL_S * 1000);
		log(`bench-n8n-queue items=${run.items} executions=${run.executions.length} wall_over_ideal=${fmt(f.wallOverIdeal)} wall_over_last_task_plus_interval=${fmt(afterSubmits)} reads_per_task=${fmt(f.readsPerTask)} heap_cap_mb=${heapCapMb ?? 'none'} worker_rss_peak_mb=${workers} rss_peak_over_baseline_mb=${fmt(f.rssOverMb, 0)} failed=${run.failed} duplicate_submits=${dup}`);
		return missed.length ? 1 : 0;
	}
	const pkg = runs.find((r) => r.scenario === 'default' && r.side === 'package');
	const loop = runs.find((r) => r.scenario === 'default' && r.side === 'loop');
	const p = figures(pkg, baseline);
	const l = loop ? figures(loop, baseline) : {};
	if (p.wallOverIdeal > TARGETS.wallOverIdeal) missed.push(`wall_over_ideal ${fmt(p.wallOverIdeal)} > ${TARGETS.wallOverIdeal}`);
	if (loop && p.readsPerTask > l.readsPerTask) missed.push(`reads_per_task ${fmt(p.readsPerTask)} > the loop's ${fmt(l.readsPerTask)} at the same ${INTERVAL_S} s interval`);
	// Regular mode: main runs the executions (in queue mode the workers do; main only takes the webhooks).
	const cpuOverLoop = loop && !queue ? p.mainCpu / l.mainCpu : NaN;
	if (Number.isFinite(cpuOverLoop)) {
		log(`main's CPU ${fmt(p.mainCpu, 1)} s against the loop's ${fmt(l.mainCpu, 1)} s: ${fmt(cpuOverLoop)} (not a target)`);
	}
	if (pkg.failed) missed.push(`failed ${pkg.failed} (under heap cap ${heapCapMb ?? 'none'})`);
	if (dup) missed.push(`duplicate_submits ${dup}`);
	if (loop && (loop.failed || loop.lost)) missed.push(`the hand-built loop did not finish the default run (${loop.failed} failed, ${loop.lost} lost): its line is no comparison`);
	log(missed.length ? `MISSED: ${missed.join('; ')}` : 'all targets met');
	log(
		`bench-n8n wall_over_ideal=${fmt(p.wallOverIdeal)} reads_per_task=${fmt(p.readsPerTask)} loop_wall_over_ideal=${fmt(l.wallOverIdeal)} loop_reads_per_task=${fmt(l.readsPerTask)} main_cpu_over_loop=${fmt(cpuOverLoop)} heap_cap_mb=${heapCapMb ?? 'none'} rss_peak_over_baseline_mb=${fmt(p.rssOverMb, 0)} failed=${pkg.failed} duplicate_submits=${dup}`,
	);
	return missed.length ? 1 : 0;
}

module.exports = { report, figures, TARGETS };
