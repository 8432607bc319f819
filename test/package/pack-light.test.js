'use strict';
// `npm run pack:light` (scripts/release/pack-light.js), the README's way to the package file
// before the first release: the same tarball as `npm ci && npm run build && npm pack`, file by
// file, built with TypeScript alone; and named as a development build between releases.
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { packLight, tscCommand } = require('../../scripts/release/pack-light');
const { packPackage } = require('../e2e/package');

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = require('../../package.json');

/** Each file of a tarball → the sha1 of its bytes. */
function contents(tgz) {
	const dir = fs.mkdtempSync(path.join(path.dirname(tgz), 'x-'));
	const res = spawnSync('tar', ['-xzf', tgz, '-C', dir], { encoding: 'utf8' });
	if (res.status !== 0) throw new Error(`tar failed: ${res.stderr}`);
	const out = {};
	const walk = (rel) => {
		for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
			const child = path.posix.join(rel, entry.name);
			if (entry.isDirectory()) walk(child);
			else out[child] = crypto.createHash('sha1').update(fs.readFileSync(path.join(dir, child))).digest('hex');
		}
	};
	walk('');
	return out;
}

test("pack:light's tarball holds what npm pack of the full build holds, byte for byte", async () => {
	const tmp = fs.mkdtempSync(path.join(process.env.TMPDIR || require('node:os').tmpdir(), 'pack-light-'));
	const full = await packPackage(path.join(tmp, 'full'));
	const light = packLight({ dest: path.join(tmp, 'light') });
	expect(path.basename(light.tgz)).toBe(path.basename(full));
	const want = contents(full);
	expect(Object.keys(want)).toEqual(expect.arrayContaining(['package/package.json', 'package/dist/nodes/UnifiedAiGateway/UnifiedAiGateway.node.js']));
	expect(contents(light.tgz)).toEqual(want);
	// The checksum the scripts print (n8n 3.0's N8N_COMMUNITY_PACKAGES, docs/INSTALL.md) is npm's own:
	// packLight compares it with `npm pack --json`'s integrity, and the file's bytes give it again.
	const { integrityOf, packageOf, checksumLines } = require('../../scripts/release/integrity');
	expect(light.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
	expect(integrityOf(light.tgz)).toBe(light.integrity);
	const { name, version } = packageOf(light.tgz);
	expect(name).toBe('n8n-nodes-unified-ai-gateway');
	// A development build is never on the registry: the lines say to install the file by hand.
	expect(checksumLines({ file: light.tgz, name, version, integrity: light.integrity }).join('\n')).toMatch(
		version.includes('-') ? /not on the npm registry[\s\S]*install this file by hand/ : /N8N_COMMUNITY_PACKAGES='/,
	);
	const release = checksumLines({ file: 'x-1.0.0.tgz', name, version: '1.0.0', integrity: light.integrity, published: true });
	expect(release.at(-1)).toBe(`  N8N_COMMUNITY_PACKAGES='[{"name":"${name}","version":"1.0.0","checksum":"${light.integrity}"}]'`);
}, 180000);

test('without the development tools installed, TypeScript comes through npx at the pinned version', () => {
	const bare = fs.mkdtempSync(path.join(process.env.TMPDIR || require('node:os').tmpdir(), 'bare-clone-'));
	fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(bare, 'package.json'));
	const tsc = tscCommand(bare);
	expect(tsc.args).toEqual(['--yes', '--package', `typescript@${pkg.devDependencies.typescript}`, '--', 'tsc']);
	expect(tscCommand(ROOT).via).toBe(`typescript ${pkg.devDependencies.typescript} of the clone`);
});
