'use strict';
// The files an example produced, written to demo-output/<example>/: the binaries of its chosen
// nodes (inline in the run or in n8n's store on disk, as rundata.binaryBuffer reads them), and for
// the AI agent the files its answer links to.

const fs = require('fs');
const path = require('path');

const { binaryBuffer } = require('../../test/e2e/rundata');
const { REPO_ROOT } = require('./examples');
const { allRunsItems, nodeItems } = require('./summary');
const { bytes, dim, rel, state, yellow } = require('./terminal');
const { describeFacts, mediaFacts } = require('./media');

/** What the simulator's files are, said beside them: they come from no AI model. */
const PLACEHOLDERS = "the simulator's placeholders, not AI output: pictures of the prompt's first words, one 4-second test clip";

const OUTPUT_DIR = path.join(REPO_ROOT, 'demo-output');

const outputDir = (example) => path.join(OUTPUT_DIR, example.name);

/** Files of an earlier demo run must not pass for this run's. */
function clearOutput(example) {
	fs.rmSync(outputDir(example), { recursive: true, force: true });
}

/** A file-name part: product names in lower case, task IDs as they are (to match the gateway). */
function slug(text, keepCase = false) {
	const value = keepCase ? String(text ?? '') : String(text ?? '').toLowerCase();
	return (
		value
			.replace(/[^A-Za-z0-9_.-]+/g, '-')
			.replace(/^-+|-+$/g, '')
			.slice(0, 60) || 'file'
	);
}

function extensionOf(binary) {
	const fromName = path.extname(String(binary.fileName || ''));
	if (fromName) return fromName;
	if (binary.fileExtension) return `.${binary.fileExtension}`;
	const sub = String(binary.mimeType || '').split('/')[1];
	return sub ? `.${sub.replace(/[^a-z0-9]/gi, '')}` : '.bin';
}

function readBinary(binary, userFolder) {
	try {
		return binaryBuffer({ userFolder }, binary);
	} catch {
		return undefined; // not in the run nor in n8n's store: nothing to write
	}
}

function printWritten(title, { dir, written }) {
	if (!written.length) return;
	console.log(`    ${title} ${rel(dir)}/${state.simulator ? ` ${yellow(`(${PLACEHOLDERS})`)}` : ''}`);
	// The file's own size and length, read from its bytes (media.js): what it is, not what was asked.
	for (const f of written) console.log(`      ${path.basename(f.file)}  ${dim([bytes(f.size), f.mimeType, f.facts].filter(Boolean).join(', '))}`);
}

/** Writes the binaries of the example's chosen nodes (example.files) to demo-output/<example>/. */
function writeFiles(example, run, userFolder) {
	const dir = outputDir(example);
	const written = [];
	const used = new Set();
	for (const nodeName of example.files) {
		for (const [index, item] of allRunsItems(run, nodeName).entries()) {
			const entries = Object.entries(item.binary || {});
			for (const [key, binary] of entries) {
				const data = readBinary(binary, userFolder);
				if (!data) continue;
				const label = item.json.product
					? slug(item.json.product)
					: slug(item.json.taskId ?? path.parse(String(binary.fileName || `item-${index + 1}`)).name, true);
				let base = `${slug(nodeName)}-${label}${entries.length > 1 || key !== 'data' ? `-${slug(key)}` : ''}`;
				if (used.has(base)) base = `${base}-${index + 1}`;
				used.add(base);
				const file = path.join(dir, `${base}${extensionOf(binary)}`);
				fs.mkdirSync(dir, { recursive: true });
				fs.writeFileSync(file, data);
				written.push({ file, size: data.length, mimeType: binary.mimeType, facts: describeFacts(mediaFacts(data)) });
			}
		}
	}
	const result = { dir, written };
	printWritten('files written to', result);
	return result;
}

/**
 * An agent's results are links in its answer (its tools do not download): fetched here, without
 * any key (result URLs are public), into demo-output/<example>/.
 */
async function writeLinkedFiles(example, run) {
	const dir = outputDir(example);
	const answer = String(nodeItems(run, example.agentNode)[0]?.json?.output ?? '');
	const urls = [...new Set(answer.match(/https?:\/\/[^\s"'<>)\]]+/g) || [])];
	const written = [];
	for (const url of urls) {
		try {
			const res = await fetch(url, { signal: AbortSignal.timeout(60000) });
			if (!res.ok) continue;
			const data = Buffer.from(await res.arrayBuffer());
			const mimeType = (res.headers.get('content-type') || '').split(';')[0];
			const name = slug(path.parse(new URL(url).pathname).name, true);
			const file = path.join(dir, `${name}${extensionOf({ fileName: new URL(url).pathname, mimeType })}`);
			fs.mkdirSync(dir, { recursive: true });
			fs.writeFileSync(file, data);
			written.push({ file, size: data.length, mimeType, facts: describeFacts(mediaFacts(data)) });
		} catch {
			// a link that does not download is still in the printed answer
		}
	}
	const result = { dir, written };
	printWritten('files the answer links to, written to', result);
	return result;
}

module.exports = { OUTPUT_DIR, PLACEHOLDERS, clearOutput, writeFiles, writeLinkedFiles };
