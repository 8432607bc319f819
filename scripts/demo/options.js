'use strict';
// The demo's command line: options, --help, the --live settings and the question before paying.

const readline = require('readline');

const { red } = require('./terminal');

function parseArgs(argv) {
	const opts = { live: process.env.DEMO_LIVE === '1', yes: false, keep: process.env.DEMO_KEEP === '1', help: false };
	for (const arg of argv) {
		if (arg === '--live') opts.live = true;
		else if (arg === '--yes' || arg === '-y') opts.yes = true;
		else if (arg === '--keep') opts.keep = true;
		else if (arg === '--help' || arg === '-h') opts.help = true;
		else throw new Error(`unknown option ${arg} (see --help)`);
	}
	return opts;
}

const help = (version, newest) => `npm run demo [-- options]

Runs the example workflows of examples/ in a real n8n ${version}, against the gateway
simulator (no account, no network, free) or, with --live, against your gateway.

  --live     use UAG_BASE_URL, UAG_API_KEY (and optional UAG_ALT_BASE_URL) instead of the
             simulator; prints the estimated cost and asks before running (also DEMO_LIVE=1)
  --yes      with --live: do not ask
  --keep     keep the temp n8n user folder (also DEMO_KEEP=1)

Files the workflows produce are written to demo-output/<example>/.
n8n (N8N_VERSION, default ${newest}, the line users install today; 1.123.81 for the 1.x line) is
installed once into $N8N_E2E_DIR (default ~/.cache/n8n-nodes-unified-ai-gateway/n8n-<version>) and reused.
DEMO_TASK_MS sets how long a simulated image task takes (default 3000; videos 2.5 times as long).`;

async function ask(question) {
	const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
	try {
		return await new Promise((resolve) => rl.question(question, resolve));
	} finally {
		rl.close();
	}
}

/** UAG_BASE_URL, UAG_API_KEY, UAG_ALT_BASE_URL for --live; an error naming what is missing. */
function liveSettings() {
	const baseUrl = (process.env.UAG_BASE_URL || '').trim();
	const apiKey = (process.env.UAG_API_KEY || '').trim();
	const altBaseUrl = (process.env.UAG_ALT_BASE_URL || '').trim();
	const missing = [!baseUrl && 'UAG_BASE_URL', !apiKey && 'UAG_API_KEY'].filter(Boolean);
	if (missing.length) {
		throw new Error(
			`--live needs ${missing.join(' and ')} in the environment, e.g.\n` +
				'  UAG_BASE_URL=https://gateway.example.com/v1 UAG_API_KEY=sk-... npm run demo -- --live',
		);
	}
	return { baseUrl, apiKey, altBaseUrl };
}

/** With --live and without --yes: true only when the user typed "yes" on a terminal. */
async function confirmPayment(live, opts) {
	if (opts.yes) return true;
	if (!process.stdin.isTTY) {
		console.log(red('Not confirmed: no terminal to ask on. Add --yes to run anyway.'));
		return false;
	}
	const answer = await ask(`Run the examples on ${live.baseUrl} and pay for it? Type "yes" to continue: `);
	if (String(answer).trim().toLowerCase() === 'yes') return true;
	console.log('Cancelled: nothing was sent.');
	return false;
}

module.exports = { parseArgs, help, liveSettings, confirmPayment };
