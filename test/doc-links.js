#!/usr/bin/env node
'use strict';
/*
 * Every link of the documentation resolves: relative links and #anchors in the repository's
 * Markdown files, and every place the shipped code sends a user to the documentation (the
 * credential's documentationUrl, the codex files' resources, the repository's GitHub URLs and the
 * README sections named in descriptions, hints and errors under nodes/ and credentials/).
 *
 *   node test/doc-links.js        prints each broken link (exit 1 when there is one)
 *
 * Anchors follow GitHub's rule for a heading (github-slugger): the heading's text as shown,
 * lower-cased, every character but letters, digits, `_`, `-` and spaces dropped, spaces turned
 * into `-`, and `-1`, `-2`, … added to a repeated one. Links to other sites are not fetched.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
/** https://github.com/<owner>/<name>, as package.json's repository names it. */
const REPO = PKG.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

// Folders that are not the package's documentation: installs, outputs, build results, Stryker's
// sandbox copy of the checkout and its reports (npm run test:mutation).
const SKIP = new Set(['node_modules', '.git', 'dist', 'demo-output', '.artifacts', 'test/lines', 'test/scan', 'test/n8n/hosts', '.stryker-tmp', 'reports']);

function walk(rel, keep, out = []) {
	for (const entry of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
		const child = rel ? `${rel}/${entry.name}` : entry.name;
		if (SKIP.has(entry.name) || SKIP.has(child)) continue;
		if (entry.isDirectory()) walk(child, keep, out);
		else if (keep(child)) out.push(child);
	}
	return out;
}

/** Every Markdown file of the repository, as paths from its root. */
const markdownFiles = () => walk('', (f) => f.endsWith('.md')).sort();

/** The lines of a Markdown text outside fenced code blocks, with their line numbers. */
function proseLines(text) {
	const lines = [];
	let fence = null;
	text.split('\n').forEach((line, i) => {
		const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
		if (fence) {
			if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) fence = null;
			return;
		}
		if (opening) {
			fence = opening[1];
			return;
		}
		lines.push({ line: i + 1, text: line });
	});
	return lines;
}

/** GitHub's anchor of a heading's Markdown text. */
function slug(heading) {
	const shown = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link shows its text
		.replace(/<[^>]+>/g, '') // HTML tags show nothing
		.replace(/`/g, '');
	return shown
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
		.replace(/ /g, '-');
}

/** The anchors a Markdown text offers: its headings' slugs and explicit `<a id|name="…">`. */
function anchorsIn(content) {
	const anchors = new Set();
	const seen = new Map();
	for (const { text } of proseLines(content)) {
		const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text);
		if (heading) {
			const base = slug(heading[1]);
			const n = seen.get(base) ?? 0;
			seen.set(base, n + 1);
			anchors.add(n ? `${base}-${n}` : base);
		}
		for (const m of text.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
	}
	return anchors;
}

const anchorCache = new Map();
/** The anchors of a Markdown file of the repository. */
function anchorsOf(file) {
	if (!anchorCache.has(file)) anchorCache.set(file, anchorsIn(fs.readFileSync(path.join(ROOT, file), 'utf8')));
	return anchorCache.get(file);
}

/** Headings of a Markdown file, as written (for references by name). */
function headingsOf(file) {
	return new Set(
		proseLines(fs.readFileSync(path.join(ROOT, file), 'utf8'))
			.map(({ text }) => /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text)?.[1])
			.filter(Boolean)
			.map((h) => h.replace(/`/g, '')),
	);
}

/** Link targets of a Markdown file: inline links and images, reference definitions, href/src. */
function linksOf(file, content = fs.readFileSync(path.join(ROOT, file), 'utf8')) {
	const links = [];
	for (const { line, text } of proseLines(content)) {
		const prose = text.replace(/(`+)[^`]*?\1/g, ''); // code spans are not links
		for (const m of prose.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ line, target: m[1] });
		const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose);
		if (definition) links.push({ line, target: definition[1] });
		for (const m of prose.matchAll(/\b(?:href|src)="([^"]+)"/g)) links.push({ line, target: m[1] });
	}
	return links;
}

/**
 * What is wrong with a link to `file#anchor` (paths from the repository's root), or null.
 * Non-Markdown files take only GitHub's line anchors (#L10, #L10-L20).
 */
function checkTarget(file, anchor, anchors = undefined) {
	const full = path.join(ROOT, file);
	if (!full.startsWith(ROOT) || !fs.existsSync(full)) return `${file} does not exist`;
	if (!anchor) return null;
	if (!file.endsWith('.md')) return /^L\d+(-L\d+)?$/.test(anchor) ? null : `${file} has no anchors (#${anchor})`;
	return (anchors ?? anchorsOf(file)).has(anchor) ? null : `${file} has no heading with the anchor #${anchor}`;
}

/** A URL of this repository on GitHub → { file, anchor }, or undefined when it names no file. */
function repoUrlTarget(url) {
	if (!url.toLowerCase().startsWith(REPO.toLowerCase())) return undefined;
	const rest = url.slice(REPO.length);
	const [beforeHash, anchor = ''] = rest.split('#');
	const [pathPart, query = ''] = beforeHash.split('?');
	// The repository's page shows the README; #readme is GitHub's own anchor of it.
	if (pathPart === '' || pathPart === '/') {
		if (query && !/^tab=readme-ov-file$/.test(query)) return { error: `unknown page ?${query}` };
		return { file: 'README.md', anchor: anchor === 'readme' ? '' : anchor };
	}
	const blob = /^\/(?:blob|tree|raw)\/[^/]+\/(.+)$/.exec(pathPart);
	if (blob) return { file: decodeURIComponent(blob[1]), anchor };
	return undefined; // issues, releases, …: pages of GitHub, not files
}

/** Broken links of one Markdown file (its text may be given): [{ file, line, target, why }]. */
function brokenLinksOf(file, content) {
	const broken = [];
	for (const { line, target } of linksOf(file, content)) {
		let resolved;
		if (/^https?:\/\//i.test(target)) {
			resolved = repoUrlTarget(target);
			if (resolved === undefined) continue; // another site: not fetched
		} else if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
			continue; // mailto: and the like
		} else {
			const [pathPart, anchor = ''] = target.split('#');
			const rel = pathPart ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(pathPart))) : file;
			resolved = { file: rel.replace(/\/$/, ''), anchor };
		}
		// A text given for the file is what its own anchors come from.
		const own = content !== undefined && resolved.file === file ? anchorsIn(content) : undefined;
		const why = resolved.error ?? checkTarget(resolved.file, resolved.anchor, own);
		if (why) broken.push({ file, line, target, why });
	}
	return broken;
}

/**
 * References to a section by name in Markdown prose: README: *Receipts*, README's *Version
 * history*, docs/DEVELOPMENT.md, "Parameter names". Bare "README" in docs/, examples/ and the
 * root's files means the root README; a path names its file (from the root, or from the file).
 */
function brokenSectionNamesOf(file, content = fs.readFileSync(path.join(ROOT, file), 'utf8')) {
	const broken = [];
	const bareReadmeIsRoot = !file.startsWith('test/');
	for (const { line, text } of proseLines(content)) {
		const prose = text.replace(/(`+)[^`]*?\1/g, (code) => code.replace(/[*"]/g, ' '));
		for (const m of prose.matchAll(/(?<![\w/.])((?:[\w.-]+\/)*[\w.-]+\.md|README)(?:'s)?[,:]? (?:\*([^*]+)\*|"([^"]+)")/g)) {
			let target = m[1];
			if (target === 'README') {
				if (!bareReadmeIsRoot) continue;
				target = 'README.md';
			} else {
				const fromFile = path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
				target = fs.existsSync(path.join(ROOT, fromFile)) ? fromFile : target;
			}
			const name = (m[2] ?? m[3]).trim();
			if (!fs.existsSync(path.join(ROOT, target))) broken.push({ file, line, target: `${m[1]} "${name}"`, why: `${target} does not exist` });
			else if (!headingsOf(target).has(name)) broken.push({ file, line, target: `${m[1]} "${name}"`, why: `${target} has no heading "${name}"` });
		}
	}
	return broken;
}

/** Source files the package ships, as paths from the root. */
const shippedSources = () => walk('nodes', (f) => /\.(ts|json)$/.test(f)).concat(walk('credentials', (f) => f.endsWith('.ts')));

/**
 * Where the shipped code points users into the documentation: every URL of this repository in
 * nodes/ and credentials/ (documentationUrl, the codex resources, texts), and README sections it
 * names in words (README "Long renders that survive a restart").
 */
function shippedReferences() {
	const refs = [];
	const urlPattern = new RegExp(`${REPO.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\s'"\`)<>]*`, 'gi');
	for (const file of shippedSources()) {
		const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
		text.split('\n').forEach((line, i) => {
			for (const m of line.matchAll(urlPattern)) refs.push({ file, line: i + 1, kind: 'url', target: m[0] });
			for (const m of line.matchAll(/README "([^"]+)"/g)) refs.push({ file, line: i + 1, kind: 'section', target: m[1] });
			for (const m of line.matchAll(/\bdocs\/[\w.-]+\.md\b/g)) refs.push({ file, line: i + 1, kind: 'file', target: m[0] });
		});
	}
	return refs;
}

/** What is wrong with one reference of the shipped code, or null. */
function checkReference({ kind, target }) {
	if (kind === 'section') return headingsOf('README.md').has(target) ? null : `README.md has no heading "${target}"`;
	if (kind === 'file') return checkTarget(target, '');
	const resolved = repoUrlTarget(target);
	if (!resolved) return null;
	return resolved.error ?? checkTarget(resolved.file, resolved.anchor);
}

/** Every broken link and reference, in words. */
function problems() {
	const found = [];
	for (const file of markdownFiles()) {
		for (const b of [...brokenLinksOf(file), ...brokenSectionNamesOf(file)]) found.push(`${b.file}:${b.line}: ${b.target}: ${b.why}`);
	}
	for (const ref of shippedReferences()) {
		const why = checkReference(ref);
		if (why) found.push(`${ref.file}:${ref.line}: ${ref.target}: ${why}`);
	}
	return found;
}

module.exports = { REPO, slug, anchorsOf, headingsOf, linksOf, markdownFiles, brokenLinksOf, brokenSectionNamesOf, shippedReferences, checkReference, repoUrlTarget, problems };

if (require.main === module) {
	const found = problems();
	for (const line of found) console.log(line);
	console.log(found.length ? `${found.length} broken links` : 'every documentation link resolves');
	process.exitCode = found.length ? 1 : 0;
}
