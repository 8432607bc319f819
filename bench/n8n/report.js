'use strict';
/*
 * The figures of each run, the targets, and the last line: the worst over the runs (max ratio, max
 * RSS growth, sum of failed items, sum of double submits, the largest stored execution per item).
 */

const TARGETS = { wallOverIdeal: 1.3, rssGrowthMb: 150, failed: 0, duplicates: 0, executionKbPerItem: 2, pollRatio: 1 };

const fmt = (n, d = 2) => (Number.isFinite(n) ? Number(n).toFixed(d) : String(n));

/** Growth of each runner over its baseline (after start-up and the warm-up); the largest counts. */
function rssGrowth(run, baseline) {
	const growth = Object.entries(run.peaks || {}).map(([name, peak]) => ({ name, mb: peak - baseline[name] }));
	return { byRunner: growth, mb: Math.max(...growth.map((g) => g.mb)) };
}

/** The worst poll count against 1.5 × ceil(T / interval) + 2 among the tasks without estimated_time. */
function worstPolls(run) {
	const without = run.tasks.filter((t) => t.withoutEstimate);
	const worst = without.reduce((w, t) => (!w || t.ratio > w.ratio ? t : w), undefined);
	return { worst, count: without.length, polls: run.tasks.reduce((n, t) => n + t.polls, 0) };
}

const since = (run, phase) => fmt((run.phases[phase] - run.started) / 1000, 1);

function describeRun(run, baseline) {
	const growth = rssGrowth(run, baseline);
	const polls = worstPolls(run);
	const lines = [
		`${run.run}: wall ${fmt(run.wallMs / 1000, 1)} s, ideal ${fmt(run.idealMs / 1000, 1)} s (slowest task ${fmt(run.slowestMs / 1000, 1)} s + interval${run.limitMs ? ` + ${fmt(run.limitMs / 1000, 1)} s the limit imposes` : ''}) → wall_over_ideal=${fmt(run.wallMs / run.idealMs)}`,
		`  timeline (s from the first POST): submits ${since(run, 'submitsFrom')}-${since(run, 'submitsTo')}, last task done ${since(run, 'lastTask')}, downloads ${since(run, 'downloadsFrom')}-${since(run, 'downloadsTo')}, ended ${fmt(run.wallMs / 1000, 1)}`,
		`  cpu seconds during the run: ${Object.entries(run.cpu).map(([name, s]) => `${name} ${fmt(s, 1)}`).join(', ')} (2 cores shared with other work)`,
		`  submits: ${run.posts} POSTs for ${run.prompts} prompts, ${run.limited} answered 429, duplicates=${run.duplicates}, failed=${run.failed}`,
		`  rss: ${growth.byRunner.map((g) => `${g.name} peak ${fmt(run.peaks[g.name], 0)} MB (+${fmt(g.mb, 0)})`).join(', ')}`,
		...run.executions.map(
			(e) => `  execution ${e.id} (${e.kind}s): ${e.status}, ${e.items} items, ${e.files} files, ${e.failed} failed; stored ${fmt(e.bytes / 1024, 0)} KB = ${fmt(e.kbPerItem)} KB/item, binaries: ${e.binaries.byReference} by reference (${e.binaries.modes.join(', ') || 'none'})${e.binaries.inline ? ', SOME INLINE' : ''}`,
		),
		`  polls: ${polls.polls} for ${run.tasks.length} tasks; without estimated_time (${polls.count}) the worst is ${polls.worst ? `${polls.worst.polls} polls for T=${fmt(polls.worst.durationMs / 1000, 1)} s against a bound of ${fmt(polls.worst.bound, 1)} (ratio ${fmt(polls.worst.ratio)})` : 'none'}`,
	];
	return { lines, growth, polls };
}

/** Prints everything; returns the exit code (1 when a target is missed, each one said). */
function report(runs, baseline, log = console.log) {
	const described = runs.map((run) => describeRun(run, baseline));
	for (const d of described) for (const line of d.lines) log(line);
	const worst = {
		wallOverIdeal: Math.max(...runs.map((r) => r.wallMs / r.idealMs)),
		rssGrowthMb: Math.max(...described.map((d) => d.growth.mb)),
		failed: runs.reduce((n, r) => n + r.failed, 0),
		duplicates: runs.reduce((n, r) => n + r.duplicates, 0),
		executionKbPerItem: Math.max(...runs.flatMap((r) => r.executions.map((e) => e.kbPerItem))),
		pollRatio: Math.max(...described.map((d) => d.polls.worst?.ratio ?? 0)),
	};
	const inline = runs.some((r) => r.executions.some((e) => e.binaries.inline || e.binaries.byReference === 0));
	const missed = [];
	if (worst.wallOverIdeal > TARGETS.wallOverIdeal) missed.push(`wall_over_ideal ${fmt(worst.wallOverIdeal)} > ${TARGETS.wallOverIdeal}`);
	if (worst.rssGrowthMb > TARGETS.rssGrowthMb) missed.push(`rss_growth_mb ${fmt(worst.rssGrowthMb, 0)} > ${TARGETS.rssGrowthMb}`);
	if (worst.failed > TARGETS.failed) missed.push(`failed ${worst.failed} > 0`);
	if (worst.duplicates > TARGETS.duplicates) missed.push(`duplicate_submits ${worst.duplicates} > 0`);
	if (worst.executionKbPerItem > TARGETS.executionKbPerItem) missed.push(`execution_data_kb ${fmt(worst.executionKbPerItem)} > ${TARGETS.executionKbPerItem} per item`);
	if (inline) missed.push('execution data holds binaries inline (or references none)');
	if (worst.pollRatio > TARGETS.pollRatio) missed.push(`polls per task above 1.5 × ceil(T / interval) + 2 (worst ratio ${fmt(worst.pollRatio)})`);
	log(`polls_worst_ratio=${fmt(worst.pollRatio)} (polls ÷ (1.5 × ceil(T / interval) + 2), tasks without estimated_time; target ≤ 1)`);
	log(missed.length ? `MISSED: ${missed.join('; ')}` : 'all targets met');
	log(
		`bench-n8n wall_over_ideal=${fmt(worst.wallOverIdeal)} rss_growth_mb=${fmt(worst.rssGrowthMb, 0)} failed=${worst.failed} duplicate_submits=${worst.duplicates} execution_data_kb=${fmt(worst.executionKbPerItem)}`,
	);
	return missed.length ? 1 : 0;
}

module.exports = { report, TARGETS };
