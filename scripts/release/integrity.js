#!/usr/bin/env node
'use strict';
/*
 * A tarball's npm integrity, the checksum n8n's N8N_COMMUNITY_PACKAGES wants (docs/INSTALL.md, n8n 3.0).
 *
 *   node scripts/release/integrity.js <file.tgz>                   prints its integrity and the variable
 *   node scripts/release/integrity.js <file.tgz> --expect sha512-…  the same, exit 1 when it differs
 *
 * npm's `integrity` of a package version is the SHA-512 of the .tgz file's bytes, base64, after
 * `sha512-` (Subresource Integrity form): what `npm pack --json` reports and the registry serves as
 * `dist.integrity`. n8n compares the checksum it is given, as a string, with the registry's
 * `dist.integrity` of that version before it installs (n8n 2.41.1, community-packages npm-utils.js
 * verifyIntegrity): so the checksum is only the registry's, and this file's equals it only when the
 * file is the one npm published (the release workflow downloads it back and checks, `--expect`).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

/** `sha512-<base64>` of the file's bytes, as npm computes a tarball's integrity. */
function integrityOf(file) {
	return `sha512-${crypto.createHash('sha512').update(fs.readFileSync(file)).digest('base64')}`;
}

/**
 * The entries of a tar archive (name, type, bytes), read from its ustar headers: enough for the
 * short paths npm writes (a pax or GNU long-name header shows as an entry of its own, unused here).
 */
function tarEntries(tar) {
	const entries = [];
	for (let at = 0; at + 512 <= tar.length; ) {
		const header = tar.subarray(at, at + 512);
		if (header.every((byte) => byte === 0)) break;
		const field = (start, length) => header.toString('utf8', start, start + length).replace(/\0.*$/s, '');
		const size = parseInt(field(124, 12).trim() || '0', 8);
		const prefix = field(345, 155);
		const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
		entries.push({ name, type: field(156, 1), body: tar.subarray(at + 512, at + 512 + size) });
		at += 512 + Math.ceil(size / 512) * 512;
	}
	return entries;
}

/** The name and version of the package in an npm tarball (its package/package.json). */
function packageOf(file) {
	const entry = tarEntries(zlib.gunzipSync(fs.readFileSync(file))).find((e) => e.name === 'package/package.json');
	if (!entry) throw new Error(`${file} holds no package/package.json: not an npm package tarball`);
	const { name, version } = JSON.parse(entry.body.toString('utf8'));
	return { name, version };
}

/** N8N_COMMUNITY_PACKAGES's value pinning one package version by its checksum (n8n 2.21 and later). */
function communityPackagesValue({ name, version, checksum }) {
	return JSON.stringify([{ name, version, checksum }]);
}

/**
 * What the pack and release scripts print about a tarball: its integrity and, for a release
 * version, the variable to paste. `published`: the file was downloaded from the registry and found
 * equal to its dist.integrity (the release workflow); otherwise it was packed here, and n8n, which
 * compares with the registry's value, accepts it only if npm published these very bytes.
 * A development version (`-dev`) is never on the registry: for it the checksum only names the file.
 */
function checksumLines({ file, name, version, integrity, published = false }) {
	const lines = [`${path.basename(file)} integrity (npm's sha512 of the file): ${integrity}`];
	if (version.includes('-')) {
		lines.push(
			`  ${version} is not on the npm registry, so N8N_COMMUNITY_PACKAGES cannot install it (n8n fetches what it`,
			"  names from the registry and compares the checksum with the registry's): install this file by hand.",
		);
		return lines;
	}
	lines.push(
		published
			? `  The registry's dist.integrity of ${name}@${version} is the same. For docs/INSTALL.md's n8n 3.0 recipe:`
			: `  Valid for n8n only if \`npm view ${name}@${version} dist.integrity\` prints the same (docs/INSTALL.md):`,
		`  N8N_COMMUNITY_PACKAGES='${communityPackagesValue({ name, version, checksum: integrity })}'`,
	);
	return lines;
}

if (require.main === module) {
	const [file, flag, expected] = process.argv.slice(2);
	// --expect: the registry's dist.integrity, which the file downloaded from it must match.
	if (!file || (flag !== undefined && (flag !== '--expect' || !expected))) {
		console.error('usage: node scripts/release/integrity.js <file.tgz> [--expect sha512-…]');
		process.exit(2);
	}
	try {
		const integrity = integrityOf(file);
		const { name, version } = packageOf(file);
		if (expected !== undefined && expected !== integrity) {
			console.error(`integrity: ${path.basename(file)} is ${integrity}, not ${expected} (--expect): another file`);
			process.exit(1);
		}
		console.log(checksumLines({ file, name, version, integrity, published: expected !== undefined }).join('\n'));
	} catch (e) {
		console.error(`integrity: ${e.message}`);
		process.exit(1);
	}
}

module.exports = { integrityOf, packageOf, communityPackagesValue, checksumLines };
