'use strict';
// n8n's newer scanner runs GuardDog's YARA threat rules over every file of the published package
// (`npm run scan` runs them when GUARDDOG_RULES_DIR is given; they are not in this repository, so CI
// cannot). These are the words of our own built code that such rules read as malware, kept out here
// so that a rename cannot bring one back unseen: a function named `downloadFile(` reads as
// PowerShell's download-and-execute, `eval(` / `new Function(` beside a fetch as running a payload.
const fs = require('fs');
const path = require('path');

const DIST = path.join(__dirname, '../../dist');
const WORDS = [
	[/DownloadFile\s*\(/i, "PowerShell's DownloadFile( (download and execute)"],
	[/\beval\s*\(/, 'eval( (running fetched code)'],
	[/\bnew\s+Function\s*\(/, 'new Function( (running fetched code)'],
	[/\bchild_process\b/, 'child_process (spawning programs)'],
	[/Invoke-WebRequest/i, 'Invoke-WebRequest'],
];

function* jsFiles(dir) {
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) yield* jsFiles(full);
		else if (entry.name.endsWith('.js')) yield full;
	}
}

test('no built file holds a word GuardDog reads as a threat', () => {
	const hits = [];
	for (const file of jsFiles(DIST)) {
		const text = fs.readFileSync(file, 'utf8');
		for (const [pattern, why] of WORDS) if (pattern.test(text)) hits.push(`${path.relative(DIST, file)}: ${why}`);
	}
	expect(hits).toEqual([]);
});
