#!/usr/bin/env node
'use strict';
// What `npm pack` puts in the tarball users install: everything n8n reads (the built nodes and
// credential, each node's codex, every output schema, the icons), the licence, README and
// changelog; and nothing of the development tree (tests, fixtures, sources, source maps, build
// state). Run by `npm test` after the build; the expected files are derived from the source tree,
// so a new schema or codex that the build forgets to copy fails here.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

/** Relative paths under dir (recursively) whose path matches test. */
function walk(dir, test, base = dir) {
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return walk(full, test, base);
		const rel = path.relative(base, full).split(path.sep).join('/');
		return test(rel) ? [rel] : [];
	});
}

/** Files the tarball must hold, from package.json and the source tree. */
function expectedFiles(root = ROOT) {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	return [
		'package.json',
		'LICENSE',
		'README.md',
		'CHANGELOG.md',
		...pkg.n8n.nodes,
		...pkg.n8n.credentials,
		...walk(path.join(root, 'nodes'), (rel) => /^[^/]+\/[^/]+\.node\.json$/.test(rel)).map((rel) => `dist/nodes/${rel}`),
		...walk(path.join(root, 'nodes'), (rel) => /(^|\/)__schema__\/.+\.json$/.test(rel)).map((rel) => `dist/nodes/${rel}`),
		...walk(path.join(root, 'icons'), (rel) => rel.endsWith('.svg')).map((rel) => `dist/icons/${rel}`),
	];
}

const FORBIDDEN = [
	[/(^|\/)(test|tests|__tests__|fixtures|__fixtures__|bench|examples|scripts|docs)\//, 'development folder'],
	[/\.test\.[cm]?js$|\.spec\.[cm]?js$/, 'test file'],
	[/\.map$/, 'source map'],
	[/(^|\/)[^/]+\.ts$/, 'TypeScript source'],
	[/\.tsbuildinfo$/, 'build state'],
	[/(^|\/)\.build-(stamp|pending)\.json$/, 'build state'],
	[/\.tgz$/, 'packed tarball'],
	[/(^|\/)\.(npmrc|env|github|ci)(\/|$)/, 'repository configuration'],
];

/** Problems with a tarball's file list, in words; empty when there are none. */
function problems(files, expected) {
	const present = new Set(files);
	const missing = expected.filter((f) => !present.has(f)).map((f) => `missing ${f}`);
	const unwanted = files.flatMap((f) => {
		const hit = FORBIDDEN.find(([pattern]) => pattern.test(f));
		return hit ? [`${hit[1]} shipped: ${f}`] : [];
	});
	return [...missing, ...unwanted];
}

function packedFiles(root = ROOT) {
	const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'], { cwd: root, encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`npm pack --dry-run failed:\n${result.stderr}`);
	const [info] = JSON.parse(result.stdout.slice(result.stdout.indexOf('[')));
	return { files: info.files.map((f) => f.path), filename: info.filename, size: info.size };
}

if (require.main === module) {
	const { files, filename, size } = packedFiles();
	const found = problems(files, expectedFiles());
	const count = (re) => files.filter((f) => re.test(f)).length;
	console.log(
		`${filename}: ${files.length} files, ${(size / 1024).toFixed(0)} KB packed; ` +
			`${count(/\.node\.json$/)} codex, ${count(/__schema__\//)} output schemas, ${count(/\.svg$/)} icons`,
	);
	if (found.length > 0) {
		console.log(`tarball check: FAILED\n  ${found.join('\n  ')}`);
		process.exit(1);
	}
	console.log('tarball check: LICENSE, README.md, CHANGELOG.md, codex, schemas, icons present; no tests, fixtures, sources or maps');
}

module.exports = { expectedFiles, problems, packedFiles };
