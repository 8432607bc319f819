// The scanner's third leg as n8n describes it: GuardDog's YARA rules over every file of the packed
// package, run through YARA-X compiled to WebAssembly (@virustotal/yara-x, from the npm registry).
// Only `threat-*` rules fail a package (`capability-*` rules only say what code can do, and are not
// read). The rules are GuardDog's (DataDog/guarddog, `guarddog/analyzer/sourcecode/*.yar`), read
// from the folder GUARDDOG_RULES_DIR names: GuardDog is a Python package (PyPI, out of reach here)
// and its rules are not copied into this repository. Written for this repository; n8n's newer
// scanner runs the same rules.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import init, { Compiler } from '@virustotal/yara-x';

/** The folder of GuardDog's rule files, or '' when none is given or it holds no threat rule. */
export function rulesDir(env = process.env) {
	const dir = env.GUARDDOG_RULES_DIR ? path.resolve(env.GUARDDOG_RULES_DIR) : '';
	if (!dir || !fs.existsSync(dir)) return '';
	return fs.readdirSync(dir).some((f) => /^threat-.*\.yar$/.test(f)) ? dir : '';
}

/** A rule file's own rule names (before its includes are pasted in: those are helpers, never findings). */
const ownRules = (source) => [...source.matchAll(/^\s*(?:private\s+)?rule\s+(\w+)/gm)].map((m) => m[1]);

/** GuardDog's `path_include` / `path_exclude`: comma-separated globs where `*` is any run of characters. */
function globs(list) {
	return (list ?? '')
		.split(',')
		.map((g) => g.trim())
		.filter(Boolean)
		.map((g) => new RegExp(`^${g.replace(/[.+^${}()|[\]\\?]/g, '\\$&').replaceAll('*', '.*')}$`));
}

/**
 * GuardDog scans the registry's tarball, whose paths begin with `package/`; a glob matches the
 * whole path or the file's name.
 */
function applies(meta, relativePath) {
	const full = `package/${relativePath}`;
	const hit = (patterns) => patterns.some((re) => re.test(full) || re.test(path.posix.basename(full)));
	const include = globs(meta.path_include);
	return (include.length === 0 || hit(include)) && !hit(globs(meta.path_exclude));
}

let compiled;

/** Compiles every threat rule once: { rules, names (own rule identifiers), files (rule files) }. */
export async function loadRules(RULES_DIR = rulesDir()) {
	if (compiled) return compiled;
	if (!RULES_DIR) throw new Error('GUARDDOG_RULES_DIR names no folder of GuardDog threat-*.yar rules');
	const require = createRequire(import.meta.url);
	const wasm = path.join(path.dirname(require.resolve('@virustotal/yara-x')), 'yara_x_js_bg.wasm');
	// The package's init() fetches its WebAssembly by URL (written for browsers): hand it the bytes.
	await init({ module_or_path: fs.readFileSync(wasm) });
	const compiler = new Compiler();
	const names = new Set();
	const files = fs.readdirSync(RULES_DIR).filter((f) => /^threat-.*\.yar$/.test(f)).sort();
	for (const file of files) {
		const text = fs.readFileSync(path.join(RULES_DIR, file), 'utf8');
		for (const name of ownRules(text)) names.add(name);
		// No file system in WebAssembly: an `include` is pasted in.
		compiler.addSource(text.replace(/^include\s+"([^"]+)"\s*$/gm, (_, inc) => fs.readFileSync(path.join(RULES_DIR, inc), 'utf8')));
	}
	compiled = { rules: compiler.build(), names, files };
	return compiled;
}

function* filesUnder(dir) {
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) yield* filesUnder(full);
		else if (entry.isFile()) yield full;
	}
}

/** Line number and text at a byte offset of a file's content. */
function lineAt(content, offset) {
	const before = content.subarray(0, offset).toString('utf8');
	const start = before.lastIndexOf('\n') + 1;
	const end = content.indexOf(0x0a, offset);
	const text = content.subarray(start, end === -1 ? content.length : end).toString('utf8').trim();
	return { line: before.split('\n').length, text: text.length > 160 ? `${text.slice(0, 157)}...` : text };
}

/**
 * Every file under packageDir (an unpacked tarball's `package/`) against the threat rules.
 * Resolves with { files (how many were read), rules (how many threat rule files), findings:
 * [{ rule, file, line, text, description }] }.
 */
export async function scanPackage(packageDir) {
	const { rules, names, files: ruleFiles } = await loadRules();
	const findings = [];
	let files = 0;
	for (const file of filesUnder(packageDir)) {
		files++;
		const relativePath = path.relative(packageDir, file).split(path.sep).join('/');
		const content = fs.readFileSync(file);
		for (const match of rules.scan(content).matches) {
			if (!names.has(match.identifier)) continue;
			const rule = match.identifier.replaceAll('_', '-');
			if (!rule.startsWith('threat-')) continue;
			const meta = Object.fromEntries(match.metadata.map((m) => [m.identifier, m.value]));
			if (!applies(meta, relativePath)) continue;
			const offsets = match.patterns.flatMap((p) => p.matches.map((m) => m.offset));
			const at = offsets.length ? lineAt(content, Math.min(...offsets)) : { line: 1, text: '' };
			findings.push({ rule, file: relativePath, ...at, description: meta.description ?? rule });
		}
	}
	return { files, rules: ruleFiles.length, findings };
}

export const formatFindings = (findings) =>
	findings.map((f) => `      ${f.file}:${f.line}  ${f.rule}: ${f.description}${f.text ? `\n        ${f.text}` : ''}`).join('\n');
