'use strict';
// The publish guard (prepublishOnly) and the tarball check that `npm test` runs on the packed package.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { refusals } = require('../../scripts/release/guard');
const { expectedFiles, problems } = require('../../scripts/release/check-tarball');

const ROOT = path.resolve(__dirname, '..', '..');
const RELEASE_ENV = {
	GITHUB_ACTIONS: 'true',
	GITHUB_WORKFLOW_REF: 'n8n-nodes-unified-ai-gateway/n8n-nodes-unified-ai-gateway/.github/workflows/release.yml@refs/tags/v0.1.0',
	RELEASE_MODE: 'true',
	npm_config_provenance: 'true',
	npm_package_version: '0.1.0',
};

test('a publish from a laptop is refused, naming each thing missing; the release workflow passes', () => {
	const laptop = spawnSync(process.execPath, [path.join(ROOT, 'scripts/release/guard.js')], { encoding: 'utf8', env: { PATH: process.env.PATH } });
	expect(laptop.status).toBe(1);
	expect(laptop.stderr).toMatch(/^Refusing to publish: this is not a GitHub Actions run/);
	expect(laptop.stderr).toMatch(/without --provenance/);
	expect(laptop.stderr).toMatch(/docs\/RELEASING\.md/);
	expect(refusals(RELEASE_ENV)).toEqual([]);
	// Any other workflow, a branch push or a publish without provenance is still refused.
	expect(refusals({ ...RELEASE_ENV, GITHUB_WORKFLOW_REF: 'o/r/.github/workflows/ci.yml@refs/tags/v0.1.0' })).toHaveLength(1);
	expect(refusals({ ...RELEASE_ENV, GITHUB_WORKFLOW_REF: 'o/r/.github/workflows/release.yml@refs/heads/main' })).toHaveLength(1);
	expect(refusals({ ...RELEASE_ENV, npm_config_provenance: 'false' })).toEqual(['npm publish runs without --provenance']);
	// A development version (package.json between releases) is never published, even from a tag.
	expect(refusals({ ...RELEASE_ENV, npm_package_version: '0.1.0-dev', GITHUB_WORKFLOW_REF: RELEASE_ENV.GITHUB_WORKFLOW_REF.replace('v0.1.0', 'v0.1.0-dev') })).toEqual([
		'the version 0.1.0-dev is a development version (the release commit sets X.Y.Z with npm version)',
	]);
});

test('package.json: npm itself refuses to publish without provenance; publishing runs the guard', () => {
	const pkg = require('../../package.json');
	expect(pkg.publishConfig).toMatchObject({ provenance: true });
	expect(pkg.scripts.prepublishOnly).toBe('node scripts/release/guard.js');
	expect(pkg.main).toBeUndefined();
	expect(pkg.engines.node).toBe('>=20.19');
	const repo = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
	expect(pkg.homepage.startsWith(`${repo}#`)).toBe(true);
	expect(pkg.bugs.url).toBe(`${repo}/issues`);
});

test('the tarball check wants every codex, schema and icon of the source tree and refuses development files', () => {
	const expected = expectedFiles();
	expect(expected).toEqual(expect.arrayContaining(['LICENSE', 'CHANGELOG.md', 'README.md', 'dist/nodes/UnifiedAiGateway/UnifiedAiGateway.node.json']));
	expect(expected.filter((f) => f.includes('/__schema__/')).length).toBeGreaterThanOrEqual(11);
	expect(problems(expected, expected)).toEqual([]);
	const withoutLicence = expected.filter((f) => f !== 'LICENSE');
	expect(problems(withoutLicence, expected)).toEqual(['missing LICENSE']);
	expect(problems([...expected, 'dist/test/support.js', 'dist/nodes/x.js.map', 'nodes/A.node.ts'], expected)).toEqual([
		'development folder shipped: dist/test/support.js',
		'source map shipped: dist/nodes/x.js.map',
		'TypeScript source shipped: nodes/A.node.ts',
	]);
});

/**
 * What disagrees between package.json's version, CHANGELOG.md's version headings, the README's
 * Version history and the file names the install instructions give; empty when they tell one story.
 */
function releaseStory({ version, changelog, readme, install }) {
	const released = [...changelog.matchAll(/^## (\d+\.\d+\.\d+)\s*$/gm)].map((m) => m[1]);
	const history = readme.slice(readme.indexOf('\n## Version history') + 1);
	const end = history.indexOf('\n## ');
	const rows = [...(end < 0 ? history : history.slice(0, end)).matchAll(/^\| *([^|]*?) *\|/gm)].map((m) => m[1]);
	const rowVersions = rows.filter((r) => /^\d+\.\d+\.\d+$/.test(r));
	const newer = (a, b) => {
		const [x, y] = [a, b].map((v) => v.split('.').map(Number));
		return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
	};
	const problems = [];
	if (JSON.stringify(rowVersions) !== JSON.stringify(released)) {
		problems.push(`README's Version history lists ${rowVersions.join(', ') || 'no version'}, CHANGELOG.md ${released.join(', ') || 'none'}`);
	}
	const dev = /^(\d+\.\d+\.\d+)-dev$/.exec(version);
	if (dev) {
		if (released.some((r) => newer(dev[1], r) <= 0)) problems.push(`${version} is not after every released version (${released.join(', ')})`);
		if (!/^## Unreleased$/m.test(changelog)) problems.push('CHANGELOG.md has no Unreleased section');
		if (!rows.some((r) => /Unreleased/.test(r))) problems.push("README's Version history has no Unreleased row");
	} else if (version !== released[0]) {
		problems.push(`package.json says ${version}, a release, but CHANGELOG.md's newest version is ${released[0] ?? 'none'}`);
	}
	const saysUnreleased = /until the first release|not released yet/i.test(readme);
	if (saysUnreleased !== (released.length === 0)) {
		problems.push(saysUnreleased ? `README says nothing is released, CHANGELOG.md has ${released.join(', ')}` : 'README does not say that nothing is released yet');
	}
	for (const [doc, text] of [['README.md', readme], ['docs/INSTALL.md', install]]) {
		for (const [file] of text.matchAll(/n8n-nodes-unified-ai-gateway-(?!<)[^\s/`*)]*\.tgz/g)) {
			if (file !== `n8n-nodes-unified-ai-gateway-${version}.tgz`) problems.push(`${doc} names ${file}; npm pack writes n8n-nodes-unified-ai-gateway-${version}.tgz`);
		}
	}
	return problems;
}

test('one story about what is released: package.json, CHANGELOG.md, the README and the file names agree', () => {
	const fs = require('node:fs');
	const read = (f) => fs.readFileSync(path.join(ROOT, f), 'utf8');
	const now = { version: require('../../package.json').version, changelog: read('CHANGELOG.md'), readme: read('README.md'), install: read('docs/INSTALL.md') };
	expect(releaseStory(now)).toEqual([]);
	// Between releases the version says so, and the packed file with it.
	expect(now.version).toMatch(/-dev$/);
	// The story before: a 0.1.0 "First release" in the history and the changelog, a README saying
	// nothing was on the registry until the first release, and a file named like that release.
	const before = {
		version: '0.1.0',
		changelog: '## Unreleased\n\n## 0.1.0\n\nThe first release.\n',
		readme: 'not on the npm registry until the first release\n`npm install --omit=peer ~/Downloads/n8n-nodes-unified-ai-gateway-0.1.0.tgz`\n\n## Version history\n\n| Version | n8n tested |\n|---|---|\n| 0.1.0 | 1.123.81 |\n\n## Licence\n',
		install: '',
	};
	expect(releaseStory(before)).toEqual(['README says nothing is released, CHANGELOG.md has 0.1.0']);
	expect(releaseStory({ ...before, version: '0.1.0-dev', readme: before.readme.replace('| 0.1.0 |', '| Unreleased |') })).toEqual([
		"README's Version history lists no version, CHANGELOG.md 0.1.0",
		'0.1.0-dev is not after every released version (0.1.0)',
		'README says nothing is released, CHANGELOG.md has 0.1.0',
		'README.md names n8n-nodes-unified-ai-gateway-0.1.0.tgz; npm pack writes n8n-nodes-unified-ai-gateway-0.1.0-dev.tgz',
	]);
});
