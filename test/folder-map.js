#!/usr/bin/env node
'use strict';
/*
 * Which tests cover a source folder, derived from the code instead of remembered:
 *
 *   node test/folder-map.js                      every folder, with the jest files that reach it
 *   node test/folder-map.js <source path>…       the jest files that reach those files or folders,
 *                                                the quick ones first (test/quick.js), each list
 *                                                on a line of its own to paste into npx jest
 *   node test/folder-map.js --check              test/README.md's "Source folder → tests" table
 *                                                against it (exit 1 naming each row that is wrong)
 *
 * A jest file reaches a source file when it runs an operation (`resource: '…'` in the file or a
 * suite helper it requires; taskWaitParameters is Task), the trigger (pollTrigger or its node), the
 * Chat Model (supplyData or its node), the credential test, the model search (listSearch), or requires a built module, and the source file
 * is in the import closure of what it ran (actions/<resource>/*, the trigger's folder, the
 * credential, methods/, the module). An over-approximation for the lower layers: an operation's
 * closure holds every module it may call.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const NODE = 'nodes/UnifiedAiGateway';

/** The folders of the map, most specific first (a file belongs to the first that holds it). */
const FOLDERS = [
	...['files', 'waiting', 'spend', 'running'].map((part) => `${NODE}/engine/${part}`),
	`${NODE}/api/tasks`,
	...['account', 'file', 'image', 'music', 'task', 'text', 'video'].map((r) => `${NODE}/actions/${r}`),
	`${NODE}/actions`,
	...['transport', 'registry', 'api', 'engine', 'params', 'pipeline', 'methods'].map((f) => `${NODE}/${f}`),
	`${NODE}/UnifiedAiGateway.node.ts`,
	'nodes/UnifiedAiGatewayTrigger',
	'nodes/UnifiedAiGatewayChatModel',
	'credentials',
];

function walk(rel, test, out = []) {
	const full = path.join(ROOT, rel);
	if (!fs.existsSync(full)) return out;
	if (fs.statSync(full).isFile()) {
		if (test(rel)) out.push(rel);
		return out;
	}
	for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
		if (entry.name === 'node_modules') continue;
		walk(path.posix.join(rel, entry.name), test, out);
	}
	return out;
}

/** Relative imports of a TypeScript source (type imports too), as source paths. */
function importsOf(file) {
	const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
	const found = [];
	for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?(?:from\s*)?['"](\.{1,2}\/[^'"]+)['"]/g)) {
		const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]));
		found.push(fs.existsSync(path.join(ROOT, `${target}.ts`)) ? `${target}.ts` : `${target}/index.ts`);
	}
	return found;
}

const SOURCES = [...walk('nodes', (f) => f.endsWith('.ts')), ...walk('credentials', (f) => f.endsWith('.ts'))];
const GRAPH = Object.fromEntries(SOURCES.map((file) => [file, importsOf(file)]));

function closure(files) {
	const seen = new Set();
	const visit = (file) => {
		if (seen.has(file) || !GRAPH[file]) return;
		seen.add(file);
		for (const target of GRAPH[file]) visit(target);
	};
	files.forEach(visit);
	return seen;
}

const folderOf = (file) => FOLDERS.find((folder) => file === folder || file.startsWith(`${folder}/`));
const under = (prefix) => SOURCES.filter((file) => file === prefix || file.startsWith(`${prefix}/`));

/** A test file's text and that of the local helpers it requires (not the shared harness, simulator, support). */
function textOf(file, seen = new Set()) {
	if (seen.has(file)) return '';
	seen.add(file);
	const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
	let all = text;
	for (const match of text.matchAll(/require\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)) {
		const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]));
		const js = fs.existsSync(path.join(ROOT, `${target}.js`)) ? `${target}.js` : `${target}/index.js`;
		if (!js.startsWith('test/') || /^test\/(support|harness|simulator|schemas|lines|n8n|folder-map)\b/.test(js) || !fs.existsSync(path.join(ROOT, js))) continue;
		all += `\n${textOf(js, seen)}`;
	}
	return all;
}

/** What a jest file runs: { entries (sources whose closure it reaches), only (reached, not their imports) }. */
function entriesOf(testFile) {
	const text = textOf(testFile);
	const entries = [];
	const only = [];
	for (const [, resource] of text.matchAll(/resource:\s*['"](\w+)['"]/g)) entries.push(...under(`${NODE}/actions/${resource}`));
	if (/taskWaitParameters\(/.test(text)) entries.push(...under(`${NODE}/actions/task`));
	if (/pollTrigger\(|unifiedAiGatewayTrigger/.test(text)) entries.push(...under('nodes/UnifiedAiGatewayTrigger'));
	if (/supplyData\(|unifiedAiGatewayChatModel/.test(text)) entries.push(...under('nodes/UnifiedAiGatewayChatModel'));
	if (/testCredential\(/.test(text)) entries.push(...under('credentials'));
	if (/listSearch|searchModels/.test(text)) entries.push(...under(`${NODE}/methods`));
	if (/loadNode\(|description\.properties/.test(text)) entries.push(`${NODE}/UnifiedAiGateway.node.ts`);
	for (const [, mod] of text.matchAll(/dist['"/, ]+((?:nodes|credentials)[^'")]*?)(?:\.js)?['")]/g)) {
		const rel = mod.replace(/['", ]+/g, '/').replace(/\/+/g, '/');
		entries.push(...SOURCES.filter((file) => file.replace(/\.ts$/, '') === rel || file === `${rel}.ts`));
	}
	// Every operation runs through the node's execute() (not all its description), and every request
	// carries the credential (its authenticate block).
	if (entries.some((file) => file.startsWith(`${NODE}/actions/`))) only.push(`${NODE}/UnifiedAiGateway.node.ts`);
	if (entries.some((file) => file.startsWith(`${NODE}/actions/`) || file.startsWith('nodes/UnifiedAiGatewayTrigger'))) entries.push(...under('credentials'));
	return { entries, only };
}

const TESTS = walk('test', (f) => f.endsWith('.test.js') && !f.startsWith('test/lines/')).sort();

/** source file → Set of jest files reaching it. */
function reachMap() {
	const map = new Map(SOURCES.map((file) => [file, new Set()]));
	for (const test of TESTS) {
		const { entries, only } = entriesOf(test);
		for (const file of [...closure(entries), ...only]) map.get(file)?.add(test);
	}
	return map;
}

/** The jest files reaching any of these source files or folders. */
function testsFor(targets, map = reachMap()) {
	const tests = new Set();
	for (const target of targets) {
		const rel = path.posix.normalize(target.replace(/\/$/, ''));
		for (const file of SOURCES) if (file === rel || file.startsWith(`${rel}/`)) for (const test of map.get(file)) tests.add(test);
	}
	return [...tests].sort();
}

/** folder → jest files reaching some file of it. */
function folderMap(map = reachMap()) {
	return Object.fromEntries(FOLDERS.map((folder) => [folder, testsFor(SOURCES.filter((f) => folderOf(f) === folder), map)]));
}

/** test/README.md's table: { folder → [test files it names] }. */
function readmeMap(text = fs.readFileSync(path.join(ROOT, 'test/README.md'), 'utf8')) {
	const section = text.split('## Source folder → tests')[1]?.split('\n## ')[0] ?? '';
	const rows = {};
	for (const line of section.split('\n')) {
		const cells = line.split('|').map((c) => c.trim());
		const folder = /^`([^`]+)`/.exec(cells[1] ?? '')?.[1];
		if (!folder) continue;
		rows[folder.replace(/\/$/, '')] = [...(cells[2] ?? '').matchAll(/`([^`]+\.test\.js)`/g)].map((m) => `test/${m[1]}`);
	}
	return rows;
}

/** Rows of the README table that are wrong, in words; empty when it holds. */
function problems(readme) {
	const derived = folderMap();
	const listed = readmeMap(readme);
	const found = [];
	for (const folder of FOLDERS) {
		if (!listed[folder]) {
			found.push(`no row for ${folder}`);
			continue;
		}
		if (listed[folder].length === 0) found.push(`${folder}: names no test`);
		for (const test of listed[folder]) {
			if (!fs.existsSync(path.join(ROOT, test))) found.push(`${folder}: ${test} does not exist`);
			else if (!derived[folder].includes(test)) found.push(`${folder}: ${test} does not reach it`);
		}
	}
	for (const folder of Object.keys(listed)) if (!FOLDERS.includes(folder)) found.push(`row ${folder} is no folder of the map`);
	return found;
}

module.exports = { FOLDERS, TESTS, reachMap, testsFor, folderMap, readmeMap, problems };

if (require.main === module) {
	const args = process.argv.slice(2);
	if (args[0] === '--check') {
		const found = problems();
		for (const line of found) console.log(line);
		console.log(found.length ? `${found.length} problems in test/README.md's map` : "test/README.md's map holds");
		process.exitCode = found.length ? 1 : 0;
	} else if (args.length) {
		require('./quick')
			.partition(testsFor(args))
			.then(({ quick, slow }) => {
				console.log(`# quick: ${quick.length} files (each at most ${require('./quick').QUICK_SECONDS} s in its last run)`);
				console.log(quick.join(' '));
				console.log(`# slower: ${slow.length} files`);
				console.log(slow.join(' '));
			});
	} else {
		for (const [folder, tests] of Object.entries(folderMap())) console.log(`${folder} (${tests.length}): ${tests.map((t) => t.replace(/^test\//, '')).join(' ')}`);
	}
}
