'use strict';
// n8n's hints stay short (its community lint's hint-max-length: 120 characters): the `hint` under a
// field of the node's and the credential's descriptions here, and every hint a run adds above the
// output in the harness (test/harness runNode fails a run whose hint is longer).
const fs = require('node:fs');
const path = require('node:path');
const { MAX_HINT_LENGTH } = require('./harness');

const DIST = path.resolve(__dirname, '../dist');
const PKG = require('../package.json');

/** Every `hint` string anywhere in a description (properties, options, collections, fixedCollection values). */
function hintsIn(value, where, found = []) {
	if (Array.isArray(value)) value.forEach((v, i) => hintsIn(v, `${where}[${i}]`, found));
	else if (value && typeof value === 'object') {
		for (const [key, v] of Object.entries(value)) {
			if (key === 'hint' && typeof v === 'string') found.push({ where: `${where}.hint`, hint: v });
			else hintsIn(v, `${where}.${value.name ? `${value.name}.` : ''}${key}`, found);
		}
	}
	return found;
}

const files = [...PKG.n8n.nodes, ...PKG.n8n.credentials].map((f) => path.join(path.dirname(DIST), f));

test.each(files.map((f) => [path.basename(f), f]))('%s: every hint within %s characters', (name, file) => {
	expect(fs.existsSync(file)).toBe(true);
	const Type = Object.values(require(file))[0];
	const instance = new Type();
	const hints = hintsIn(instance.description ?? instance, name);
	const long = hints.filter(({ hint }) => hint.length > MAX_HINT_LENGTH).map(({ where, hint }) => `${where} (${hint.length}): ${hint}`);
	expect(long).toEqual([]);
});

test('the limit is n8n\'s: 120 characters', () => {
	expect(MAX_HINT_LENGTH).toBe(120);
});
