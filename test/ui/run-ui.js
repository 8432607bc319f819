#!/usr/bin/env node
'use strict';
/*
 * The node's editor checked in a real browser, and the README's screenshots taken on the way.
 *
 *   npm run test:ui          (builds, then runs this file; `npm run screenshots` is the same)
 *   node test/ui/run-ui.js   (uses the dist/ that is there)
 *   node test/ui/run-ui.js video pending   (only the check files whose path holds one of the words)
 *
 * Real n8n of the line N8N_VERSION picks (stack.js), Debian's Chromium (editor.js drives it);
 * the checks are in checks/, the screenshot scenes in screenshots/. README.md here lists them.
 *
 * Environment: N8N_VERSION, CHROMIUM_PATH (default /usr/bin/chromium), UI_SCREENSHOTS_DIR
 * (default docs/screenshots), UI_PACKAGE_DIR (test another built copy of the package),
 * UI_KEEP=1 (keep the temp folder), UI_VERBOSE=1 (browser console errors), UI_N8N_LOG_LEVEL.
 */

const fs = require('fs');
const path = require('path');

const editor = require('./editor');
const { Session, ARTIFACTS_DIR, check } = require('./session');
const { startStack } = require('./stack');
const { WRONG_KEY } = require('./checks/credential');
const { tempDir, removeTempDir } = require('../n8n/tempdirs');

const REPO = path.resolve(__dirname, '..', '..');
const GOOD_KEY = 'sk-sim-good';
const OPEN = 'the editor opens a new workflow (auth cookie from the REST login)';

// In this order: the credential checks go on in the node panel the image checks leave open.
const CHECKS = ['checks/image-fields', 'checks/credential', 'screenshots/video-models', 'checks/imported-workflows', 'checks/trigger', 'screenshots/image-preview', 'screenshots/pending-resume', 'screenshots/discovery'];

function settings() {
	return {
		packageDir: path.resolve(process.env.UI_PACKAGE_DIR || REPO),
		chromiumPath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
		shotsDir: path.resolve(process.env.UI_SCREENSHOTS_DIR || path.join(REPO, 'docs', 'screenshots')),
		keep: process.env.UI_KEEP === '1',
		verbose: process.env.UI_VERBOSE === '1',
		logLevel: process.env.UI_N8N_LOG_LEVEL || 'warn',
	};
}

const redact = (text) => text.split(GOOD_KEY).join('***').split(WRONG_KEY).join('***');

/** options.n8nDir: an n8n install to use as it is (not prepared), e.g. one being explored. */
async function main(options = {}) {
	const only = options.only || [];
	const groups = CHECKS.filter((g) => !only.length || only.some((w) => g.includes(w)));
	const started = Date.now();
	const cfg = settings();
	const tmpRoot = tempDir('n8n-ui-', { keep: cfg.keep });
	let stack;
	let browser;
	let page;
	const session = new Session({ redact, page: () => page });
	const cleanUp = async () => {
		if (browser) await browser.close().catch(() => {});
		if (stack) {
			if (session.anyFailed) {
				fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
				fs.copyFileSync(stack.n8n.logFile, path.join(ARTIFACTS_DIR, 'n8n-start.log'));
				console.log(`      n8n log: ${path.relative(REPO, path.join(ARTIFACTS_DIR, 'n8n-start.log'))}`);
			}
			await stack.stop();
		}
		if (cfg.keep) console.log(`kept temp folder ${tmpRoot}`);
		else removeTempDir(tmpRoot);
	};
	const onSignal = (signal) => {
		console.log(`interrupted (${signal})`);
		cleanUp().finally(() => process.exit(130));
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	try {
		const missingBuild = ['dist/nodes/UnifiedAiGateway/UnifiedAiGateway.node.js', 'dist/credentials/UnifiedAiGatewayApi.credentials.js'].filter(
			(f) => !fs.existsSync(path.join(cfg.packageDir, f)),
		);
		check(!missingBuild.length, `build output missing (run npm run build): ${missingBuild.join(', ')}`);
		check(fs.existsSync(cfg.chromiumPath), `Chromium not found at ${cfg.chromiumPath}: apt-get install -y --no-install-recommends chromium, or set CHROMIUM_PATH`);
		stack = await startStack({ packageDir: cfg.packageDir, tmpRoot, apiKey: GOOD_KEY, logLevel: cfg.logLevel, n8nDir: options.n8nDir });
		const baseUrl = stack.n8n.baseUrl;
		const opened = await editor.launch({ chromiumPath: cfg.chromiumPath, baseUrl, cookie: stack.cookie, verbose: cfg.verbose });
		({ browser, page } = opened);
		const env = {
			...stack.ws,
			session,
			page,
			baseUrl,
			sim: stack.sim,
			repo: REPO,
			packageDir: cfg.packageDir,
			packageName: stack.packageName,
			n8nVersion: stack.n8n.version,
			goodKey: GOOD_KEY,
			pageErrors: opened.pageErrors,
			OPEN,
			newTab: () => opened.ctx.newPage(),
			shot: async (target, name, opts) => {
				const file = await editor.screenshot(target, path.join(cfg.shotsDir, name), opts);
				console.log(`      screenshot ${path.relative(REPO, file)}`);
			},
			shotParameters: async (tab, name, from, to) => {
				const file = await editor.screenshotParameters(tab, path.join(cfg.shotsDir, name), from, to);
				console.log(`      screenshot ${path.relative(REPO, file)}`);
			},
			simJson: async (method, route, body) => {
				const res = await fetch(`${stack.sim.mainUrl}${route}`, {
					method,
					headers: { authorization: `Bearer ${GOOD_KEY}`, 'content-type': 'application/json' },
					body: body && JSON.stringify(body),
				});
				return { status: res.status, json: await res.json() };
			},
		};
		await session.test(OPEN, () => editor.openNewWorkflow(page, baseUrl));
		let shared = {};
		for (const group of groups) shared = { ...shared, ...((await require(`./${group}`).run(session, env, shared)) || {}) };
		await session.test('the editor threw no uncaught exceptions', async () => {
			check(!opened.pageErrors.length, `uncaught page errors:\n${opened.pageErrors.map((x) => `${x.message} (${x.url})`).join('\n')}`);
		});
	} catch (e) {
		session.fail('setup', session.errorText(e));
	} finally {
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
		await cleanUp();
	}
	return session.finish(started);
}

if (require.main === module) {
	// dist/ first: a runner started with `node …` after a source edit runs the current code (test/build-current.js).
	require('../build-current').ensureCurrent();
	main({ only: process.argv.slice(2) }).then(
		(code) => process.exit(code),
		(e) => {
			console.error(e);
			process.exit(1);
		},
	);
}

module.exports = { main };
