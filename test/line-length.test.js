'use strict';
// Lines a reader can take in: no line of nodes/ or credentials/ over 120 characters (a tab counts
// as one, as an editor's column does). Prettier breaks code at 100 but leaves a long string, template
// or comment whole; `node scripts/wrap-lines.js` breaks those, and what it cannot (a regular
// expression, a URL) is broken by hand.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const LIMIT = 120;

function sources(dir) {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sources(full);
		return /\.(ts|json)$/.test(entry.name) && !full.includes('__schema__') ? [full] : [];
	});
}

test(`no line of nodes/ or credentials/ is over ${LIMIT} characters`, () => {
	const files = [...sources(path.join(ROOT, 'nodes')), ...sources(path.join(ROOT, 'credentials'))];
	expect(files.length).toBeGreaterThan(0);
	const long = files.flatMap((file) =>
		fs
			.readFileSync(file, 'utf8')
			.split('\n')
			.map((line, i) => ({ line, at: `${path.relative(ROOT, file)}:${i + 1}` }))
			// A JSON value that is one URL (the codex's documentation links) cannot be broken.
			.filter(({ line }) => line.length > LIMIT && !/^\s*"\w+": "https?:\/\/\S+",?$/.test(line))
			.map(({ line, at }) => `${at} (${line.length})`),
	);
	expect(long).toEqual([]);
});
