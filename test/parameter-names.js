#!/usr/bin/env node
'use strict';
/*
 * The node's parameter names are a published interface: a saved workflow stores each value under
 * its name, and n8n drops a value whose name its node no longer shows (docs/DEVELOPMENT.md,
 * "Parameter names"). test/parameter-names.lock.json lists every name per resource and operation
 * (and the trigger's per event), collections' and fixed collections' entries as dotted paths, with
 * each node's version; test/parameter-names-lock.test.js fails when the node's description differs.
 *
 *   node test/parameter-names.js            print what differs from the lock (exit 1 when anything does)
 *   node test/parameter-names.js --update   rewrite the lock from the node's description, on purpose
 *
 * A name counts for an operation when its display conditions on resource and operation (or the
 * trigger's event) can hold; conditions on other fields (model, route, host, switches) are taken as
 * "may hold": the lock is about names a saved workflow can carry, whatever else it set.
 */
const fs = require('node:fs');
const path = require('node:path');

const LOCK = path.join(__dirname, 'parameter-names.lock.json');
// The Chat Model sub-node has one form (no resource or event): its names are one context, ''.
const NODES = { unifiedAiGateway: ['resource', 'operation'], unifiedAiGatewayTrigger: ['event'], unifiedAiGatewayChatModel: [] };

/** Whether a property may show with these fields fixed (other conditions may hold). */
function mayShow(property, fixed) {
	const { show, hide } = property.displayOptions ?? {};
	const key = (raw) => raw.replace(/^\//, '');
	for (const [raw, values] of Object.entries(show ?? {})) {
		if (key(raw) in fixed && !values.includes(fixed[key(raw)])) return false;
	}
	// A hide list hides only when all its conditions surely hold.
	const hides = Object.entries(hide ?? {});
	return !(hides.length > 0 && hides.every(([raw, values]) => key(raw) in fixed && values.includes(fixed[key(raw)])));
}

/** A property's name and, inside collections, every entry's dotted path (fixed collections: parent.option.entry), at any depth. */
function namesOf(property, prefix = '') {
	const name = `${prefix}${property.name}`;
	if (property.type === 'collection') return [name, ...(property.options ?? []).flatMap((o) => namesOf(o, `${name}.`))];
	if (property.type === 'fixedCollection') {
		return [name, ...(property.options ?? []).flatMap((o) => [`${name}.${o.name}`, ...(o.values ?? []).flatMap((v) => namesOf(v, `${name}.${o.name}.`))])];
	}
	return [name];
}

/** Every combination of the node's choosing fields (resource → its operations; event). */
function contexts(properties, keys) {
	const optionsOf = (name, fixed) =>
		properties.filter((p) => p.name === name && mayShow(p, fixed)).flatMap((p) => (p.options ?? []).map((o) => o.value));
	let rows = [{}];
	for (const key of keys) rows = rows.flatMap((fixed) => [...new Set(optionsOf(key, fixed))].map((value) => ({ ...fixed, [key]: value })));
	return rows;
}

/** { version, names: { 'image/generate': [sorted names] } } of one node's description. */
function namesOfNode(description, keys) {
	const names = {};
	for (const fixed of contexts(description.properties, keys)) {
		const shown = description.properties.filter((p) => mayShow(p, fixed)).flatMap((p) => namesOf(p));
		names[keys.map((k) => fixed[k]).join('/')] = [...new Set(shown)].sort();
	}
	return { version: description.version, names };
}

/** The lock's content for the built nodes (dist/). */
function currentNames(load = require('./harness').loadNode) {
	return Object.fromEntries(Object.entries(NODES).map(([node, keys]) => [node, namesOfNode(load(node).description, keys)]));
}

const HOW = 'If the change is on purpose, see docs/DEVELOPMENT.md ("Parameter names") and run `node test/parameter-names.js --update`.';

/** What differs between the lock and the description, one line each; empty when they agree. */
function differences(lock, current) {
	const lines = [];
	for (const node of Object.keys({ ...lock, ...current })) {
		const was = lock[node] ?? { names: {} };
		const now = current[node] ?? { names: {} };
		if (JSON.stringify(was.version) !== JSON.stringify(now.version)) lines.push(`${node}: version ${JSON.stringify(was.version)} → ${JSON.stringify(now.version)}`);
		for (const context of [...new Set([...Object.keys(was.names), ...Object.keys(now.names)])].sort()) {
			const before = new Set(was.names[context] ?? []);
			const after = new Set(now.names[context] ?? []);
			const removed = [...before].filter((n) => !after.has(n));
			const added = [...after].filter((n) => !before.has(n));
			if (!was.names[context]) lines.push(`${node} ${context}: a new operation or event (${added.length} names)`);
			else if (!now.names[context]) lines.push(`${node} ${context}: removed, with its ${removed.length} names: saved workflows using it break`);
			else {
				if (removed.length) lines.push(`${node} ${context}: removed ${removed.join(', ')}: a saved workflow that set ${removed.length > 1 ? 'them' : 'it'} loses the value (a rename needs a node version or a migration)`);
				if (added.length) lines.push(`${node} ${context}: added ${added.join(', ')}`);
			}
		}
	}
	return lines.length ? [...lines, HOW] : [];
}

function readLock() {
	return JSON.parse(fs.readFileSync(LOCK, 'utf8')).nodes;
}

function writeLock(current) {
	const about = 'Every parameter name of the nodes per resource/operation (trigger: per event), collections as dotted paths. Saved workflows use them: see docs/DEVELOPMENT.md ("Parameter names"). Written by `node test/parameter-names.js --update`; checked by test/parameter-names-lock.test.js.';
	fs.writeFileSync(LOCK, `${JSON.stringify({ about, nodes: current }, null, '\t')}\n`);
}

module.exports = { currentNames, differences, readLock, namesOfNode, contexts, mayShow, NODES, LOCK };

if (require.main === module) {
	require('./build-current').ensureCurrent();
	const current = currentNames();
	if (process.argv.includes('--update')) {
		writeLock(current);
		console.log(`wrote ${path.relative(process.cwd(), LOCK)}`);
	} else {
		const lines = differences(readLock(), current);
		console.log(lines.length ? lines.join('\n') : 'the parameter names match test/parameter-names.lock.json');
		process.exitCode = lines.length ? 1 : 0;
	}
}
