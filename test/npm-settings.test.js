'use strict';
// The n8n installs the project runs (test/n8n/install.js: the e2e, the demo, the UI test, the
// bench) take the user's npm settings, and not the ones `npm run` adds from this repository. The
// install's own npm step runs against a registry stand-in on loopback serving one tiny package, in
// the environment `npm run` gives a script: this repository's .npmrc exported (ignore-scripts,
// legacy-peer-deps), its folder as local_prefix, and the user's registry, cache or proxy.
const childProcess = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const { npmStep, installCache, userNpmEnv } = require('./n8n/install');

const REPO = path.resolve(__dirname, '..');
const NAME = 'uag-npm-settings-probe';

/** The probe's package.json: its install script leaves a file, so it ran only if install scripts were on. */
const MANIFEST = { name: NAME, version: '1.0.0', scripts: { install: 'node -e "require(\'fs\').writeFileSync(\'install-script-ran\', \'yes\')"' } };

function probeTarball(dir) {
	const pkg = path.join(dir, 'src', 'package');
	fs.mkdirSync(pkg, { recursive: true });
	fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify(MANIFEST));
	const tgz = path.join(dir, 'probe.tgz');
	childProcess.execFileSync('tar', ['-czf', tgz, '-C', path.join(dir, 'src'), 'package']);
	return fs.readFileSync(tgz);
}

/**
 * A registry stand-in that is also an HTTP proxy: it answers the package's document and tarball
 * for any host it is asked for, and records each request line as it came (a proxied request
 * carries the whole URL).
 */
async function standIn(tarball) {
	const seen = [];
	const integrity = `sha512-${crypto.createHash('sha512').update(tarball).digest('base64')}`;
	const server = http.createServer((req, res) => {
		seen.push(req.url);
		const url = new URL(req.url, `http://${req.headers.host}`);
		if (url.pathname === `/${NAME}`) {
			const tarballUrl = `${url.origin}/${NAME}/-/${NAME}-1.0.0.tgz`;
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ name: NAME, 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': { ...MANIFEST, hasInstallScript: true, dist: { tarball: tarballUrl, integrity } } } }));
		} else if (url.pathname === `/${NAME}/-/${NAME}-1.0.0.tgz`) {
			res.end(tarball);
		} else {
			res.statusCode = 404;
			res.end('{}');
		}
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${server.address().port}`, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** `npm run`'s exports of this repository (its .npmrc, its folder), beside what the test gives as the user's. */
function npmRunEnv(user) {
	return { npm_config_ignore_scripts: 'true', npm_config_legacy_peer_deps: 'true', npm_config_local_prefix: REPO, npm_package_name: 'n8n-nodes-unified-ai-gateway', ...user };
}

describe("the n8n install's npm takes the user's npm settings, not npm run's", () => {
	let tmp;
	let registry;
	let saved;
	beforeAll(async () => {
		tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uag-npm-settings-'));
		registry = await standIn(probeTarball(tmp));
	});
	afterAll(async () => {
		await registry.close();
		fs.rmSync(tmp, { recursive: true, force: true });
	});
	beforeEach(() => {
		saved = { ...process.env };
		registry.seen.length = 0;
		for (const key of Object.keys(process.env)) if (/^npm_/i.test(key)) delete process.env[key];
	});
	afterEach(() => {
		for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
		Object.assign(process.env, saved);
	});

	/** A host folder like an n8n line's (package.json naming the probe), installed by the install's own npm step. */
	async function install(name) {
		const line = { dir: path.join(tmp, name), node: undefined };
		fs.mkdirSync(line.dir);
		fs.writeFileSync(path.join(line.dir, 'package.json'), JSON.stringify({ name: `host-${name}`, private: true, dependencies: { [NAME]: '1.0.0' } }));
		await npmStep(line, ['install', '--no-audit', '--no-fund', '--loglevel=error'], path.join(tmp, `${name}.log`), name, true);
		return line;
	}

	test('a registry and a cache from the environment reach it; ignore-scripts and local_prefix from npm run do not', async () => {
		const cache = path.join(tmp, 'user-cache');
		Object.assign(process.env, npmRunEnv({ npm_config_registry: `${registry.url}/`, npm_config_cache: cache }));
		const line = await install('from-env');
		expect(registry.seen).toEqual([`/${NAME}`, `/${NAME}/-/${NAME}-1.0.0.tgz`]);
		const installed = path.join(line.dir, 'node_modules', NAME);
		expect(fs.readFileSync(path.join(installed, 'install-script-ran'), 'utf8')).toBe('yes');
		expect(fs.existsSync(path.join(REPO, 'node_modules', NAME))).toBe(false);
		// The tarball went into the user's cache, and the demo counts that folder (installCache).
		const index = childProcess.execFileSync('grep', ['-rl', `${NAME}-1.0.0.tgz`, path.join(cache, '_cacache', 'index-v5')], { encoding: 'utf8' });
		expect(index.trim()).not.toBe('');
		expect(await installCache(line)).toBe(cache);
	});

	test("a proxy from the user's .npmrc (npm_config_userconfig, as npm run exports it) reaches it", async () => {
		const userconfig = path.join(tmp, 'user.npmrc');
		fs.writeFileSync(userconfig, `registry=http://registry.uag-npm-settings.invalid/\nproxy=${registry.url}/\ncache=${path.join(tmp, 'proxy-cache')}\nupdate-notifier=false\n`);
		Object.assign(process.env, npmRunEnv({ npm_config_userconfig: userconfig }));
		const line = await install('from-npmrc');
		// Through the proxy: each request names the registry the user set, in full.
		expect(registry.seen).toEqual([`http://registry.uag-npm-settings.invalid/${NAME}`, `http://registry.uag-npm-settings.invalid/${NAME}/-/${NAME}-1.0.0.tgz`]);
		expect(fs.existsSync(path.join(line.dir, 'node_modules', NAME, 'install-script-ran'))).toBe(true);
	});

	test('what is kept and what goes, by name', () => {
		const env = userNpmEnv(
			npmRunEnv({
				NPM_CONFIG_HTTPS_PROXY: 'http://proxy.example:3128',
				npm_config_registry: 'https://mirror.example/',
				npm_config_cafile: '/etc/ssl/corp.pem',
				npm_config_userconfig: '/home/u/.npmrc',
				npm_lifecycle_event: 'demo',
				HOME: '/home/u',
			}),
		);
		expect(Object.keys(env).sort()).toEqual(['HOME', 'NPM_CONFIG_HTTPS_PROXY', 'npm_config_cafile', 'npm_config_registry', 'npm_config_userconfig']);
	});
});
