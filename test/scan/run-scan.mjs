// n8n's verification scan (@n8n/scan-community-package, installed as published in this folder),
// run the way n8n runs it on a package it verifies: its own analyzePackage() on the source and on
// the packed tarball; then the scanner's newer third leg, GuardDog's YARA rules over every file of
// the tarball (./guarddog.mjs: the 0.32.0 served here predates it). Any error fails `npm test`.
// Needs a built dist/ (`npm test` builds first).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import glob from 'fast-glob';

import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

import { formatFindings, rulesDir, scanPackage } from './guarddog.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { tempDir, removeTempDir } = createRequire(import.meta.url)('../n8n/tempdirs.js');
const TARBALL_PATTERNS = ['**/*.js', 'package.json'];
const SCANNER_VERSION = JSON.parse(
	fs.readFileSync(new URL('./node_modules/@n8n/scan-community-package/package.json', import.meta.url), 'utf8'),
).version;

function run(command, args, cwd) {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}`);
	return result.stdout;
}

/** `npm pack`, unpacked as n8n's scanner unpacks the registry's tarball. */
function unpackTarball(dir) {
	const [{ filename }] = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], ROOT));
	const packageDir = path.join(dir, 'package');
	fs.mkdirSync(packageDir);
	run('tar', ['-xzf', path.join(dir, filename), '-C', packageDir, '--strip-components=1'], dir);
	return { dir, packageDir, filename };
}

/** One leg: the scanner's verdict, and how many files it read (a scan that reads nothing proves nothing). */
async function leg(label, dir, patterns) {
	const files = glob.sync(patterns, { cwd: dir, ignore: ['node_modules/**', '**/package-lock.json'] });
	const result = await analyzePackage(dir, patterns);
	const passed = result.passed && files.length > 0;
	console.log(`${passed ? 'PASS' : 'FAIL'}  ${label}: ${files.length} files (${patterns.join(', ')})`);
	if (!passed) {
		console.log(`      ${result.message ?? 'no files found'}`);
		if (result.details) console.log(result.details.replaceAll(`${dir}${path.sep}`, ''));
	}
	return passed;
}

/**
 * GuardDog's threat rules over every file of the tarball. A package.json with a preinstall script
 * (GuardDog's threat-npm-preinstall-script) must be found first: rules that load but match nothing
 * would pass every package.
 */
async function yaraLeg(tarball) {
	if (!rulesDir()) {
		console.log(
			"NOT RUN  GuardDog YARA leg: GuardDog's rules come from its Python package (PyPI, out of reach here) " +
				'and are not copied into this repository; GUARDDOG_RULES_DIR=<a checkout of DataDog/guarddog>/guarddog/analyzer/sourcecode ' +
				'runs them (docs/DEVELOPMENT.md).',
		);
		return true;
	}
	const canary = path.join(tarball.dir, 'canary');
	fs.mkdirSync(canary);
	fs.writeFileSync(path.join(canary, 'package.json'), '{ "scripts": { "preinstall": "node x.js" } }\n');
	const caught = (await scanPackage(canary)).findings.some((f) => f.rule === 'threat-npm-preinstall-script');
	const { files, rules, findings } = await scanPackage(tarball.packageDir);
	const passed = caught && files > 0 && findings.length === 0;
	console.log(`${passed ? 'PASS' : 'FAIL'}  GuardDog YARA rules (${rules} threat rules, YARA-X ${YARA_VERSION}) over every file of ${tarball.filename}: ${files} files, ${findings.length} findings`);
	if (!caught) console.log('      the rules did not catch a preinstall script in a test package.json: they are not working');
	if (findings.length) console.log(formatFindings(findings));
	return passed;
}

const YARA_VERSION = JSON.parse(fs.readFileSync(new URL('./node_modules/@virustotal/yara-x/package.json', import.meta.url), 'utf8')).version;

console.log(`n8n verification scan, @n8n/scan-community-package ${SCANNER_VERSION} (rules as n8n applies them; eslint-disable comments do not count)`);
const sourceOk = await leg('source checkout', ROOT, SOURCE_FILE_PATTERNS);
// Removed at the end, on a failure and on Ctrl-C too (test/n8n/tempdirs.js).
const tarball = unpackTarball(tempDir('uag-scan-'));
let tarballOk;
let yaraOk;
try {
	tarballOk = await leg(`npm pack tarball ${tarball.filename}`, tarball.packageDir, TARBALL_PATTERNS);
	yaraOk = await yaraLeg(tarball);
} finally {
	removeTempDir(tarball.dir);
}
console.log(
	'NOT RUN  provenance and registry download legs: they read the published package\'s npm provenance ' +
		'and fetch its attested GitHub source, out of reach here (docs/RELEASING.md).',
);
if (!sourceOk || !tarballOk || !yaraOk) {
	console.log('n8n scan: FAILED (fix the code; the scanner ignores eslint-disable comments)');
	process.exit(1);
}
console.log('n8n scan: 0 errors');
