#!/usr/bin/env node
'use strict';
/*
 * Lines a reader can take in (docs/DEVELOPMENT.md, "Style"): no line of nodes/ or credentials/ over
 * 120 characters (test/line-length.test.js holds it). Prettier breaks code at 100 but leaves a long
 * string, template or comment whole; this script breaks those, the way a person would:
 *
 *   - a string or template literal becomes a concatenation of pieces cut at spaces
 *     ('… the gateway ' + 'refused …'), which prettier then lays out one piece per line;
 *   - a comment is re-flowed at word boundaries: `//` runs, JSDoc paragraphs, one-line JSDoc
 *     turned into a block.
 *
 * What it cannot cut (a long regular expression, a URL, an identifier) it names; those are broken
 * by hand. Then `npx prettier --write` on the files it changed.
 *
 *   node scripts/wrap-lines.js [files…]     (default: every .ts under nodes/ and credentials/)
 */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const LIMIT = 120;
const PIECE = 72;
const ROOT = path.resolve(__dirname, '..');

function tsFiles(dir) {
	const out = [];
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) out.push(...tsFiles(full));
		else if (entry.name.endsWith('.ts')) out.push(full);
	}
	return out;
}

/** Cuts text at spaces into pieces of about PIECE characters; each piece keeps its trailing space. */
function cutAtSpaces(text, width = PIECE) {
	const pieces = [];
	let rest = text;
	while (rest.length > width) {
		let at = rest.lastIndexOf(' ', width);
		if (at < width / 3) at = rest.indexOf(' ', width);
		if (at < 0) break;
		pieces.push(rest.slice(0, at + 1));
		rest = rest.slice(at + 1);
	}
	pieces.push(rest);
	return pieces.filter((piece) => piece !== '');
}

/** Whether a literal sits where only a literal may (a type, a key, a case, an import). */
function mustStayLiteral(node) {
	const parent = node.parent;
	if (!parent) return true;
	if (ts.isLiteralTypeNode(parent) || ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) return true;
	if (ts.isExternalModuleReference(parent) || ts.isCaseClause(parent) || ts.isEnumMember(parent)) return true;
	if ((ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent)) && parent.name === node) return true;
	if (ts.isTaggedTemplateExpression(parent)) return true;
	if (ts.isElementAccessExpression(parent) && parent.argumentExpression === node) return true;
	let up = parent;
	while (up) {
		if (ts.isTypeNode(up) && !ts.isExpressionWithTypeArguments(up)) return true;
		up = up.parent;
	}
	return false;
}

/** The longest line the node's text stands on (a literal may span lines: a template). */
function lineLength(source, node) {
	const text = source.text;
	const start = text.lastIndexOf('\n', node.getStart(source)) + 1;
	let end = text.indexOf('\n', node.getEnd());
	if (end < 0) end = text.length;
	return Math.max(...text.slice(start, end).split('\n').map((line) => line.length));
}

/** The replacement of a long literal, or undefined when it cannot be cut. */
function cutLiteral(source, node) {
	if (ts.isStringLiteral(node)) {
		const raw = node.getText(source);
		const quote = raw[0];
		const pieces = cutAtSpaces(raw.slice(1, -1));
		if (pieces.length < 2) return undefined;
		return `(${pieces.map((piece) => `${quote}${piece}${quote}`).join(' +\n')})`;
	}
	if (ts.isNoSubstitutionTemplateLiteral(node)) {
		const pieces = cutAtSpaces(node.getText(source).slice(1, -1));
		if (pieces.length < 2) return undefined;
		return `(${pieces.map((piece) => `\`${piece}\``).join(' +\n')})`;
	}
	if (ts.isTemplateExpression(node)) {
		// Segments: literal text (cuttable at spaces) and `${expression}` (whole).
		const segments = [{ text: node.head.rawText ?? node.head.text }];
		for (const span of node.templateSpans) {
			segments.push({ expression: `\${${span.expression.getText(source)}}` });
			segments.push({ text: span.literal.rawText ?? span.literal.text });
		}
		const pieces = [''];
		for (const segment of segments) {
			if (segment.expression !== undefined) {
				pieces[pieces.length - 1] += segment.expression;
				continue;
			}
			let rest = segment.text;
			while (rest.length > 0) {
				const current = pieces[pieces.length - 1];
				const width = current === '' ? PIECE : Math.max(PIECE - current.length, 0);
				if (rest.length <= width) {
					pieces[pieces.length - 1] += rest;
					break;
				}
				let at = rest.lastIndexOf(' ', width);
				if (at < 0 || (current === '' && at < width / 3)) at = rest.indexOf(' ', width);
				if (at < 0) {
					pieces[pieces.length - 1] += rest;
					break;
				}
				pieces[pieces.length - 1] += rest.slice(0, at + 1);
				pieces.push('');
				rest = rest.slice(at + 1);
			}
		}
		const kept = pieces.filter((piece) => piece !== '');
		if (kept.length < 2) return undefined;
		return `(${kept.map((piece) => `\`${piece}\``).join(' +\n')})`;
	}
	return undefined;
}

function wrapLiterals(file, text) {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const edits = [];
	const visit = (node) => {
		const literal =
			ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);
		// A short literal on a long line is not what makes it long: prettier breaks the code around it.
		const long = literal && node.getText(source).length > 40 && lineLength(source, node) > LIMIT;
		if (long && !mustStayLiteral(node)) {
			const replacement = cutLiteral(source, node);
			if (replacement) {
				edits.push({ start: node.getStart(source), end: node.getEnd(), replacement });
				return; // the pieces keep any template inside whole
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	let out = text;
	for (const edit of edits.sort((a, b) => b.start - a.start))
		out = out.slice(0, edit.start) + edit.replacement + out.slice(edit.end);
	return { text: out, count: edits.length };
}

function reflow(words, width) {
	const lines = [];
	let line = '';
	for (const word of words) {
		if (line && line.length + 1 + word.length > width) {
			lines.push(line);
			line = word;
		} else line = line ? `${line} ${word}` : word;
	}
	if (line) lines.push(line);
	return lines;
}

/** Long comments re-flowed: `//` runs, ` * ` paragraphs, one-line `/** … *\/`. */
function wrapComments(text) {
	const lines = text.split('\n');
	const out = [];
	let count = 0;
	const width = (indent) => LIMIT - 4 - indent.replace(/\t/g, '  ').length;
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i];
		let match = /^(\s*)\/\*\* (.*) \*\/$/.exec(line);
		if (match && line.length > LIMIT) {
			const [, indent, body] = match;
			out.push(`${indent}/**`, ...reflow(body.split(' '), width(indent)).map((l) => `${indent} * ${l}`), `${indent} */`);
			count++;
			continue;
		}
		match = /^(\s*)(\/\/|\*) (.*)$/.exec(line);
		if (match && line.length > LIMIT) {
			// The run of comment lines of the same kind and indent this line begins or continues.
			const [, indent, mark] = match;
			const run = [];
			let j = i;
			const same = (l) => {
				const m = /^(\s*)(\/\/|\*) (.*)$/.exec(l);
				return m && m[1] === indent && m[2] === mark && !/^\s*[-\d@]/.test(m[3]) ? m[3] : undefined;
			};
			// This line and the rest of its paragraph (earlier lines are already short), re-flowed together.
			while (j < lines.length && (j === i || same(lines[j]) !== undefined)) {
				run.push(j === i ? match[3] : same(lines[j]));
				j++;
			}
			if (run.length === 0) run.push(match[3]);
			const words = run.join(' ').split(' ').filter(Boolean);
			out.push(...reflow(words, width(indent)).map((l) => `${indent}${mark} ${l}`));
			count++;
			i = Math.max(i, j - 1);
			continue;
		}
		out.push(line);
	}
	return { text: out.join('\n'), count };
}

function main() {
	const files = process.argv.slice(2).length
		? process.argv.slice(2).map((f) => path.resolve(f))
		: [...tsFiles(path.join(ROOT, 'nodes')), ...tsFiles(path.join(ROOT, 'credentials'))];
	const changed = [];
	for (const file of files) {
		const before = fs.readFileSync(file, 'utf8');
		const literals = wrapLiterals(file, before);
		const comments = wrapComments(literals.text);
		if (comments.text !== before) {
			fs.writeFileSync(file, comments.text);
			changed.push(path.relative(ROOT, file));
		}
	}
	console.log(changed.join('\n'));
}

if (require.main === module) main();
module.exports = { cutAtSpaces, reflow };
