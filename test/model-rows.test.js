'use strict';
// A model is one row of the registry (registry/*Models.ts): the simulator serves every row
// (test/simulator/catalog.js reads them), and the documents that list models are held to the
// registry here, naming what is missing: the README's Image and Video model lists, and the
// contract's §10.9, where every id beyond the gateway document's table (§2.1) has its public source.
const fs = require('node:fs');
const path = require('node:path');

const { useSimulator, API_KEY } = require('./support');
const { defaultModels } = require('./simulator/catalog');
// The registry the node ships (and the simulator's catalogue reads).
const { MODELS: ROWS } = require('../dist/nodes/UnifiedAiGateway/registry/models.js');

const ROOT = path.join(__dirname, '..');
const REGISTRY_IDS = new Set(ROWS.map((row) => row.id));
const idsOf = (group) => [...new Set(ROWS.filter((row) => row.group === group).map((row) => row.id))];
// Each group's rows are registry/<group>Models.ts (registry/groups.ts says so).
const FILE_OF = new Proxy({}, { get: (_, group) => `registry/${String(group)}Models.ts` });

/** The lines of a Markdown file from a heading to the next heading of that level or higher. */
function section(file, heading) {
	const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
	const start = lines.findIndex((line) => line.startsWith(heading));
	if (start < 0) throw new Error(`${file} has no heading "${heading}"`);
	const level = /^#+/.exec(heading)[0].length;
	const end = lines.findIndex((line, i) => i > start && /^#+ /.test(line) && /^#+/.exec(line)[0].length <= level);
	return lines.slice(start + 1, end < 0 ? undefined : end);
}

const backticked = (text) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/**
 * The model ids a text names, its shorthand spelled out: `nano-banana`, `-2` is nano-banana-2;
 * `wan2.7-t2v`/`-i2v` is wan2.7-i2v (the last full id, or it without its last part, and the suffix:
 * whichever is a registry id).
 */
function modelIds(tokens) {
	const out = [];
	let last;
	for (const token of tokens.filter((t) => /^-?[A-Za-z0-9][\w.]*(-[\w.]+)+$|^-[\w.]+$/.test(t))) {
		if (!token.startsWith('-')) {
			last = token;
			out.push(token);
			continue;
		}
		const candidates = [`${last}${token}`, `${last.replace(/-[^-]*$/, '')}${token}`];
		out.push(candidates.find((id) => REGISTRY_IDS.has(id)) ?? candidates[0]);
	}
	return out;
}

describe("the README's model lists are the registry's rows", () => {
	const lists = {
		image: {
			heading: '### Image → Generate / Edit',
			// The table's first column: the ids of each row.
			named: () => modelIds(section('README.md', '### Image → Generate / Edit').filter((l) => l.startsWith('| `') || l.startsWith('| alt host')).flatMap((l) => backticked(l.split('|')[1]))),
		},
		video: {
			heading: '### Video → Generate',
			named: () => modelIds(backticked(section('README.md', '### Video → Generate').join('\n'))),
		},
		audio: {
			heading: '### Audio, Text, File, Task, Account',
			// The Audio bullet, up to the next one.
			named: () => {
				const lines = section('README.md', "### Audio, Text, File, Task, Account, and as an AI Agent's tool");
				const start = lines.findIndex((l) => l.startsWith('- **Audio'));
				const end = lines.findIndex((l, i) => i > start && l.startsWith('- **'));
				return modelIds(backticked(lines.slice(start, end).join('\n')));
			},
		},
	};

	test.each(Object.keys(lists))('%s: every row is named, and every id named has a row', (group) => {
		const { heading, named } = lists[group];
		const ids = named();
		// An old id kept for existing clients (its row names the recommended one) is not advertised.
		const advertised = idsOf(group).filter((id) => !ROWS.some((row) => row.id === id && row.recommendedId));
		const missing = advertised
			.filter((id) => !ids.includes(id))
			.map((id) => `README.md "${heading}" does not name ${id} (a row of ${FILE_OF[group]})`);
		const stale = ids.filter((id) => !REGISTRY_IDS.has(id)).map((id) => `README.md "${heading}" names ${id}, which has no row in the registry`);
		expect([...missing, ...stale]).toEqual([]);
	});

	test('the check can fail: an id left out of the list is named', () => {
		const ids = modelIds(['kling-v3', 'MiniMax-Hailuo-2.3', '-02', 'nano-banana', '-2-lite', 'wan2.7-t2v', '-i2v']);
		expect(ids).toEqual(['kling-v3', 'MiniMax-Hailuo-2.3', 'MiniMax-Hailuo-02', 'nano-banana', 'nano-banana-2-lite', 'wan2.7-t2v', 'wan2.7-i2v']);
		expect(idsOf('video').filter((id) => !ids.includes(id))).toContain('viduq3-pro');
	});
});

test("every registry row beyond the contract's table (§2.1) has its source in §10.9", () => {
	const table = new Set(backticked(section('docs/gateway-contract.md', '### §2.1').filter((l) => l.startsWith('|')).join('\n')));
	const sources = new Set(backticked(section('docs/gateway-contract.md', '### §10.9').join('\n')));
	const missing = ROWS.filter((row) => !table.has(row.id) && !sources.has(row.id)).map(
		(row) => `docs/gateway-contract.md §10.9 has no source for ${row.id} (a row of ${FILE_OF[row.group]}, not in §2.1)`,
	);
	expect(missing).toEqual([]);
	// The table is read: its ids are not asked of §10.9.
	expect(table.has('seedance-1.0-mini')).toBe(true);
});

describe('the simulator serves every row', () => {
	const ctx = useSimulator();

	test('GET /v1/models lists every image and video row, and the text rows', () => {
		const listed = new Set(defaultModels().map((m) => m.id));
		// A music row is Suno's `mv` version, not a relay model: the relay lists none of them.
		const models = ROWS.filter((row) => row.group !== 'music');
		expect(models.map((row) => row.id).filter((id) => !listed.has(id))).toEqual([]);
	});

	test('a music job is accepted for every music row (its `mv`)', async () => {
		const refused = [];
		for (const mv of idsOf('music')) {
			const response = await fetch(`${ctx.sim.mainUrl}/suno/submit/music`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
				body: JSON.stringify({ gpt_description_prompt: 'a calm piano piece', mv }),
			});
			if (response.status !== 200) refused.push(`${mv}: ${response.status} ${await response.text()}`);
		}
		expect(refused).toEqual([]);
		expect(idsOf('music').length).toBeGreaterThanOrEqual(5);
	});

	test('a video task is accepted for every video row', async () => {
		const refused = [];
		for (const model of idsOf('video')) {
			const response = await fetch(`${ctx.sim.mainUrl}/v1/video/generations`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
				body: JSON.stringify({ model, prompt: 'waves' }),
			});
			if (response.status !== 200) refused.push(`${model}: ${response.status} ${await response.text()}`);
		}
		expect(refused).toEqual([]);
		expect(ctx.sim.taskIds().length).toBe(idsOf('video').length);
	});
});
