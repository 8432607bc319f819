'use strict';
// What the examples cost on a real gateway, from the package's own model registry (the built
// dist/): printed before --live asks, and as one line after a simulator run.

const path = require('path');

const { REPO_ROOT, isOurs } = require('./examples');
const { bold, dim, usd } = require('./terminal');

function registry(file) {
	return require(path.join(REPO_ROOT, 'dist', 'nodes', 'UnifiedAiGateway', 'registry', file));
}

const modelIdOf = (p) => (typeof p.modelId === 'object' ? p.modelId.value : p.modelId);

/** A body key's value in the node's parameters: each variant has its own name (`size`, `size_gptImage25`, `videoDuration_seedance20`). */
const variantValue = (p, base) => Object.entries(p).find(([name, value]) => (name === base || name.startsWith(`${base}_`)) && value !== '')?.[1];

function imageCall(node, count) {
	const p = node.parameters || {};
	const modelId = modelIdOf(p);
	const rows = registry('imageModels.js').IMAGE_MODELS.filter((m) => m.id === modelId);
	const row = rows.find((m) => m.host === (p.imageHost || rows[0]?.host)) || rows[0];
	if (!row || !row.price) return { text: `${count} × ${modelId} (not in the price list)`, usd: 0, unknown: true };
	const price = row.price;
	const rule = price.multiplierField && row.fields?.[p.operation]?.[price.multiplierField];
	const sent = price.multiplierField ? (variantValue(p, price.multiplierField) ?? Object.entries(p).find(([name, value]) => name.startsWith('imageOptions_') && value?.[price.multiplierField] !== undefined)?.[1][price.multiplierField] ?? rule?.default) : undefined;
	const multiplier = sent === undefined ? 1 : (price.multipliers?.[String(sent)] ?? 1);
	const n = Number(p.n ?? 1);
	const each = price.baseUsd * multiplier * n;
	const how = `${price.baseUsd} USD${multiplier !== 1 ? ` × ${multiplier} (${sent})` : ''}${n !== 1 ? ` × ${n} images` : ''}`;
	return { text: `${count} × ${modelId} ${p.operation} at ${how} = ${usd(each * count)}`, usd: each * count };
}

/** What running an example costs on a real gateway: a sum in USD plus what the price list lacks. */
function estimate(example) {
	const lines = [];
	const extra = [];
	let total = 0;
	if (example.agent) {
		lines.push(`AI Agent: ${example.agent}`);
		total += example.agentUsd ?? 0;
		extra.push('the agent\'s chat tokens');
	}
	for (const node of example.workflow.nodes.filter(isOurs)) {
		const p = node.parameters || {};
		const count = example.items;
		// Tools are called as often as the agent decides, its chat model once per turn (see example.agent).
		if (node.type.endsWith('Tool') || node.type.endsWith('ChatModel')) continue;
		if (p.resource === 'image') {
			const call = imageCall(node, count);
			total += call.usd;
			lines.push(`${node.name}: ${call.text}`);
		} else if (p.resource === 'video') {
			const modelId = modelIdOf(p);
			const length = variantValue(p, 'videoSeconds') ?? variantValue(p, 'videoDuration') ?? p.videoMetadataDurationSeconds;
			lines.push(`${node.name}: ${count} × ${length ? `${length}-second ` : ''}${modelId} video at the site price (pre-charged by duration)`);
			extra.push(`${count} ${modelId} video${count === 1 ? '' : 's'}`);
		} else if (p.resource === 'music') {
			const what = p.operation === 'writeLyrics' ? 'suno_lyrics' : 'suno_music';
			lines.push(`${node.name}: ${count} music submit${count === 1 ? '' : 's'} at the gateway's price (${what})`);
			extra.push(`${count} ${what} submit${count === 1 ? '' : 's'}`);
		} else if (p.resource === 'text') {
			lines.push(`${node.name}: ${count} chat call${count === 1 ? '' : 's'}, billed per token at the gateway's price`);
			extra.push(`${count} chat call${count === 1 ? '' : 's'} (per token)`);
		} else {
			const what = node.type.endsWith('Trigger')
				? 'the trigger reads tasks'
				: { file: 'upload', task: 'task queries', account: 'account query' }[p.resource] || p.resource;
			lines.push(`${node.name}: free (${what})`);
		}
	}
	return { lines, total, extra };
}

/** The estimate of every example: { costs: [{ example, lines, total, extra }], total, text }. */
function estimateAll(examples) {
	const costs = examples.map((example) => ({ example, ...estimate(example) }));
	const total = costs.reduce((sum, c) => sum + c.total, 0);
	const extra = costs.flatMap((c) => c.extra);
	return { costs, total, text: `${usd(total)}${extra.length ? ` + ${extra.join(' + ')}` : ''}` };
}

function printEstimate(all) {
	console.log(`\n${bold('Estimated cost')} (gateway price list; your plan decides the final charge):`);
	for (const c of all.costs) {
		console.log(`  ${c.example.name}`);
		for (const line of c.lines) console.log(`    ${line}`);
	}
	console.log(`  ${bold('Total')}: ${all.text}`);
	console.log(dim('  Video is pre-charged by the site price and duration; chat is billed per token.'));
}

module.exports = { registry, estimate, estimateAll, printEstimate };
