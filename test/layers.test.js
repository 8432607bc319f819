'use strict';
/*
 * The layer order of docs/ARCHITECTURE.md ("Layers"), checked on the sources: every relative import
 * of nodes/** and credentials/** points to the same layer or one below it, and no chain of imports
 * comes back to where it started. A new upward import or cycle fails `npm test` here.
 */

const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const NODE = 'nodes/UnifiedAiGateway/';

/**
 * Bottom first: a file may import its own layer and those listed before it. A file belongs to the
 * layer of the longest prefix that holds it: the engine's own files (concurrency, hints) lie
 * below its parts, and files, waiting, spend and running each import only the parts before them.
 */
const LAYERS = [
	['transport', [`${NODE}transport/`]],
	['registry', [`${NODE}registry/`]],
	['api', [`${NODE}api/`]],
	['engine', [`${NODE}engine/`]],
	['engine/files', [`${NODE}engine/files/`]],
	['engine/waiting', [`${NODE}engine/waiting/`]],
	['engine/spend', [`${NODE}engine/spend/`]],
	['engine/running', [`${NODE}engine/running/`]],
	['params', [`${NODE}params/`]],
	['pipeline', [`${NODE}pipeline/`]],
	['actions', [`${NODE}actions/`, `${NODE}methods/`]],
	['nodes', [`${NODE}UnifiedAiGateway.node.ts`, 'nodes/UnifiedAiGatewayTrigger/', 'nodes/UnifiedAiGatewayChatModel/', 'credentials/']],
];

function layerOf(file) {
	let found = -1;
	let longest = 0;
	LAYERS.forEach(([, prefixes], index) => {
		for (const prefix of prefixes) {
			if (file.startsWith(prefix) && prefix.length > longest) [found, longest] = [index, prefix.length];
		}
	});
	return found;
}

function sources(dir) {
	return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const rel = `${dir}/${entry.name}`;
		if (entry.isDirectory()) return sources(rel);
		return entry.name.endsWith('.ts') ? [rel] : [];
	});
}

/** Relative imports and re-exports (type-only included: a type import still ties the layers). */
function importsOf(file, text) {
	const found = [];
	const pattern = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?(?:from\s*)?['"](\.{1,2}\/[^'"]+)['"]/g;
	for (const match of text.matchAll(pattern)) {
		const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]));
		found.push(fs.existsSync(path.join(ROOT, `${target}.ts`)) ? `${target}.ts` : `${target}/index.ts`);
	}
	return found;
}

/** The import graph of a tree of sources given as { file: text }. */
function graphOf(files) {
	return Object.fromEntries(Object.entries(files).map(([file, text]) => [file, importsOf(file, text)]));
}

function upwardImports(graph) {
	const problems = [];
	for (const [file, targets] of Object.entries(graph)) {
		const own = layerOf(file);
		for (const target of targets) {
			const theirs = layerOf(target);
			if (own < 0) problems.push(`${file} is in no layer`);
			else if (theirs < 0) problems.push(`${file} imports ${target}, which is in no layer`);
			else if (theirs > own) problems.push(`${file} (${LAYERS[own][0]}) imports ${target} (${LAYERS[theirs][0]})`);
		}
	}
	return [...new Set(problems)];
}

function cycles(graph) {
	const found = [];
	const state = new Map(); // 1 = on the current path, 2 = done
	const stack = [];
	const visit = (file) => {
		state.set(file, 1);
		stack.push(file);
		for (const target of graph[file] ?? []) {
			if (state.get(target) === 1) found.push([...stack.slice(stack.indexOf(target)), target].join(' → '));
			else if (!state.has(target)) visit(target);
		}
		stack.pop();
		state.set(file, 2);
	};
	for (const file of Object.keys(graph).sort()) if (!state.has(file)) visit(file);
	return found;
}

function readTree() {
	const files = [...sources('nodes'), ...sources('credentials')];
	return Object.fromEntries(files.map((file) => [file, fs.readFileSync(path.join(ROOT, file), 'utf8')]));
}

describe('layers (docs/ARCHITECTURE.md)', () => {
	const graph = graphOf(readTree());

	test('every source file belongs to a layer', () => {
		expect(Object.keys(graph).filter((file) => layerOf(file) < 0)).toEqual([]);
	});

	test('no import points up a layer', () => {
		expect(upwardImports(graph)).toEqual([]);
	});

	test('no import cycle', () => {
		expect(cycles(graph)).toEqual([]);
	});

	test("the engine's parts are layers of their own: waiting may not import running, nor the engine's root a part", () => {
		const planted = graphOf({
			[`${NODE}engine/waiting/a.ts`]: "import { b } from '../running/b';\nimport { c } from '../files/c';",
			[`${NODE}engine/running/b.ts`]: "import { a } from '../waiting/a';",
			[`${NODE}engine/files/c.ts`]: "import { d } from '../d';",
			[`${NODE}engine/d.ts`]: "import { c } from './files/c';",
		});
		for (const targets of Object.values(planted)) targets.forEach((t, k) => (targets[k] = t.replace(/\/index\.ts$/, '.ts')));
		expect(upwardImports(planted)).toEqual([
			`${NODE}engine/waiting/a.ts (engine/waiting) imports ${NODE}engine/running/b.ts (engine/running)`,
			`${NODE}engine/d.ts (engine) imports ${NODE}engine/files/c.ts (engine/files)`,
		]);
	});

	test('the check sees an upward import and a cycle', () => {
		const planted = graphOf({
			[`${NODE}engine/a.ts`]: "import { b } from '../params/b';\nimport type { C } from './c';",
			[`${NODE}engine/c.ts`]: "export type { A } from './a';",
			[`${NODE}params/b.ts`]: 'export const b = 1;',
		});
		// Relative targets are resolved on disk, so the planted ones fall back to `/index.ts`: map them back.
		for (const targets of Object.values(planted)) targets.forEach((t, k) => (targets[k] = t.replace(/\/index\.ts$/, '.ts')));
		expect(upwardImports(planted)).toEqual([`${NODE}engine/a.ts (engine) imports ${NODE}params/b.ts (params)`]);
		expect(cycles(planted)).toEqual([`${NODE}engine/a.ts → ${NODE}engine/c.ts → ${NODE}engine/a.ts`]);
	});
});
