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
