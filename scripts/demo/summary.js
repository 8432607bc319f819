'use strict';
// What the demo prints about a run: a line or a few per node, in execution order, and the summary
// of all examples at the end.

const { isOurs, EXAMPLES_DIR } = require('./examples');
const { bold, excerpt, green, hide, red, rel, seconds, state, usd, yellow } = require('./terminal');

/** The items of a node's run (the first by default): main output, or the ai_tool output of a node run as a tool. */
function nodeItems(run, name, index = 0) {
	const task = run.data.resultData.runData[name]?.[index];
	return task?.data?.main?.[0] ?? task?.data?.ai_tool?.[0] ?? task?.data?.ai_languageModel?.[0] ?? [];
}

/** The items of every run of a node (a node in a loop runs once per round). */
function allRunsItems(run, name) {
	return (run.data.resultData.runData[name] ?? []).flatMap((_, index) => nodeItems(run, name, index));
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The chat model under an agent: one run per model call. */
function describeChatModel(runs) {
	const tokens = runs.reduce((sum, r) => sum + (r.data?.ai_languageModel?.[0]?.[0]?.json?.tokenUsage?.totalTokens ?? 0), 0);
	return `${plural(runs.length, 'chat call')} to the gateway${tokens ? ` (${tokens} tokens)` : ''}`;
}

/** The AI Agent's answer: its lines, URLs whole (the rest shortened). */
function describeAgent(items) {
	const answer = String(items[0]?.json?.output ?? '');
	return ['answer:', ...answer.split('\n').map((line) => `  ${/https?:\/\//.test(line) ? line : excerpt(line, 100)}`)];
}

function describeImage(json, count) {
	const pending = json.filter((j) => j.pending);
	if (pending.length) {
		return [
			`${plural(pending.length, 'task')} submitted, not waited for (Wait for Result off):`,
			...pending.map((j) => `  ${j.taskId}  ${j.status}  (${j.model}, query route ${j.queryRoute})`),
		];
	}
	const cost = json.reduce((sum, j) => sum + (j.estimatedCost?.amount ?? 0), 0);
	const model = json[0]?.model ?? '';
	const tasks = json.filter((j) => j.taskId).map((j) => `${j.taskId} completed`);
	const simulated = state.simulator ? ' (simulated)' : '';
	return [`${plural(count, 'image')}${simulated} from ${model}${cost ? `, estimated ${usd(cost)}` : ''}${tasks.length ? `: ${tasks.join(', ')}` : ''}`];
}

/** One line (or a few) about what one of our nodes did, from its output items. */
function describeOurNode(node, items) {
	const p = node.parameters || {};
	const json = items.map((i) => i.json);
	const count = items.length;
	if (p.resource === 'text') {
		const tokens = json.reduce((sum, j) => sum + (j.usage?.total_tokens ?? 0), 0);
		const model = json[0]?.model ?? '';
		const simulated = state.simulator ? ' (simulated: the simulator echoes the prompt)' : '';
		return [`${plural(count, 'answer')} from ${model}${tokens ? ` (${tokens} tokens)` : ''}${simulated}`, ...json.map((j) => `  “${excerpt(j.text)}”`)];
	}
	if (p.resource === 'file') {
		return json.map((j) => `uploaded ${j.filename} (${j.bytes} B) → ${j.url}${j.expiresAt ? `, valid until ${j.expiresAt}` : ''}`);
	}
	if (p.resource === 'image') return describeImage(json, count);
	if (p.resource === 'video') {
		// `seconds` and `size` are what the gateway says was asked for; the simulator's file is its one
		// test clip, whose own length and size the files list reads from the file.
		const asked = (j) => `${state.simulator ? 'asked for ' : ''}${j.seconds ?? '?'} s, ${j.size ?? j.resolution ?? ''}`;
		return [
			`${plural(count, 'video')}${state.simulator ? ' (simulated)' : ''}:`,
			...json.map((j) =>
				j.pending
					? `  ${j.taskId}  ${j.status} (still running: resume with Task → Wait for Completion)`
					: `  ${j.taskId}  ${j.status}  (${j.model}, ${asked(j)})`,
			),
		];
	}
	if (p.resource === 'task') {
		return [
			`${plural(count, 'task')} read:`,
			...json.map((j) => `  ${j.taskId}  ${j.error ? `failed: ${excerpt(j.error, 90)}` : `${j.state ?? j.status}${j.progress !== undefined ? ` ${j.progress}%` : ''}`}`),
		];
	}
	if (p.resource === 'account') return json.map((j) => excerpt(JSON.stringify(j), 100));
	const errors = json.filter((j) => j.error && !j.taskId && !j.url);
	return [`${plural(count, 'item')}${errors.length ? `, ${errors.length} with errors` : ''}`];
}

/** Prints what each node of the run did, in execution order (triggers and notes left out). */
function printNodes(workflow, run) {
	const byName = new Map(workflow.nodes.map((n) => [n.name, n]));
	const runData = run ? run.data.resultData.runData : {};
	for (const name of Object.keys(runData)) {
		const node = byName.get(name);
		if (!node || /manualTrigger|scheduleTrigger|stickyNote/.test(node.type)) continue;
		// A node in a loop (the long-render loop's Wait and Check Once) runs once per round: its last round is shown.
		const rounds = runData[name].length;
		const taskData = runData[name][rounds - 1];
		if (taskData && taskData.error) {
			console.log(`    ${name.padEnd(22)} ${red(`error: ${excerpt(hide(taskData.error.message), 120)}`)}`);
			continue;
		}
		const items = nodeItems(run, name, rounds - 1);
		const described = isOurs(node)
			? describeOurNode(node, items)
			: /\.agent$/.test(node.type)
				? describeAgent(items)
				: /\.lmChat/.test(node.type)
					? [describeChatModel(runData[name])]
					: [plural(items.length, 'item')];
		const lines = rounds > 1 ? [`ran ${rounds} times; the last time: ${described[0]}`, ...described.slice(1)] : described;
		console.log(`    ${name.padEnd(22)} ${hide(lines[0])}`);
		for (const line of lines.slice(1)) console.log(`    ${''.padEnd(22)} ${hide(line)}`);
	}
}

/** The end of the demo: one line per example, the counts, the cost a live run would have, where next. */
function printSummary({ results, ms, live, cost, outputDir, keptFolder }) {
	const ok = results.filter((r) => r.status === 'ok').length;
	const failed = results.filter((r) => r.status === 'failed').length;
	const skipped = results.filter((r) => r.status === 'skipped').length;
	console.log(`\n${bold('Summary')}`);
	for (const r of results) {
		const mark = r.status === 'ok' ? green('✔') : r.status === 'failed' ? red('✘') : yellow('–');
		const files = r.files && r.files.written.length ? `, ${r.files.written.length} file(s) in ${rel(r.files.dir)}/` : '';
		console.log(`  ${mark} ${r.example.name.padEnd(24)} ${r.status}${r.ms ? ` in ${seconds(r.ms)}` : ''}${files}`);
	}
	console.log(`${ok} ok, ${failed} failed, ${skipped} skipped; ${seconds(ms)} in all.`);
	if (results.some((r) => r.files && r.files.written.length)) {
		console.log(`The files are in ${outputDir}/ (a folder per example)${state.simulator ? ": the simulator's placeholders, not AI output" : ''}.`);
	}
	if (!live) {
		console.log(
			`On a real gateway the runnable examples would cost about ${cost.text} ` +
				'(npm run demo -- --live shows the details and asks first).',
		);
	}
	console.log(`Import the examples into your n8n: Workflows → Import from File… → ${rel(EXAMPLES_DIR)}/*.json.`);
	if (keptFolder) console.log(`Kept the n8n user folder: ${keptFolder}`);
	return failed;
}

module.exports = { nodeItems, allRunsItems, describeOurNode, printNodes, printSummary };
