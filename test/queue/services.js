'use strict';
/*
 * Redis and PostgreSQL 15 from Debian for n8n's queue mode: on free loopback ports, data in a
 * temp folder, stopped by process id. Installs the Debian packages when they are missing (CI runs
 * as root on a fresh machine).
 */

const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');

const { freePort, run, sleep, tail } = require('../n8n/run');

const PG_BIN = '/usr/lib/postgresql/15/bin';
const REDIS = '/usr/bin/redis-server';
const PG_USER = 'postgres';

/** apt-get install what is missing (root only: anyone else is told the command). */
async function ensureDebianPackages() {
	const missing = [];
	if (!fs.existsSync(REDIS)) missing.push('redis-server');
	if (!fs.existsSync(path.join(PG_BIN, 'initdb'))) missing.push('postgresql-15');
	if (!missing.length) return [];
	if (process.getuid && process.getuid() !== 0) {
		throw new Error(`queue mode needs ${missing.join(' and ')}: sudo apt-get install -y ${missing.join(' ')}`);
	}
	console.log(`installing ${missing.join(', ')} with apt-get`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...missing]]) {
		const res = await run('apt-get', args, { env, heartbeat: `apt-get ${args[0]}` });
		if (res.code !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${res.code}):\n${tail(res.stderr || res.stdout, 20)}`);
	}
	return missing;
}

/** The uid/gid that PostgreSQL runs as: initdb refuses root. */
function postgresIds() {
	if (process.getuid() !== 0) return {};
	const entry = fs
		.readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.find((l) => l.startsWith(`${PG_USER}:`));
	if (!entry) throw new Error(`no "${PG_USER}" user: the postgresql package creates it`);
	const [, , uid, gid] = entry.split(':');
	return { uid: Number(uid), gid: Number(gid) };
}

function spawnDaemon(command, args, logFile, ids = {}) {
	const log = fs.openSync(logFile, 'a');
	const child = childProcess.spawn(command, args, { stdio: ['ignore', log, log], detached: true, ...ids });
	fs.closeSync(log);
	let exited = null;
	child.once('exit', (code, signal) => {
		exited = { code, signal };
	});
	const stop = async () => {
		for (const [signal, waitMs] of [['SIGTERM', 10000], ['SIGKILL', 3000]]) {
			if (exited) return;
			try {
				process.kill(child.pid, signal);
			} catch {
				return;
			}
			const until = Date.now() + waitMs;
			while (!exited && Date.now() < until) await sleep(100);
		}
	};
	return { child, pid: child.pid, stop, exited: () => exited };
}

async function waitFor(what, probe, daemon, logFile, timeoutMs = 30000) {
	const until = Date.now() + timeoutMs;
	while (!(await probe())) {
		if (daemon.exited() || Date.now() > until) {
			await daemon.stop();
			throw new Error(`${what} did not start (${JSON.stringify(daemon.exited())}):\n${tail(fs.readFileSync(logFile, 'utf8'), 20)}`);
		}
		await sleep(200);
	}
}

const tcpOpen = (port) =>
	new Promise((resolve) => {
		const socket = require('net').connect(port, '127.0.0.1');
		socket.once('connect', () => socket.end(() => resolve(true)));
		socket.once('error', () => resolve(false));
	});

/** redis-server on a free port, no persistence. Returns { port, pid, stop() }. */
async function startRedis(dir) {
	const port = await freePort();
	const data = path.join(dir, 'redis');
	fs.mkdirSync(data, { recursive: true });
	const logFile = path.join(data, 'redis.log');
	const daemon = spawnDaemon(REDIS, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', data], logFile);
	await waitFor('redis-server', () => tcpOpen(port), daemon, logFile);
	return { port, pid: daemon.pid, stop: daemon.stop };
}

/**
 * PostgreSQL 15 cluster in dir/pg (owned by the postgres user when run as root), database n8n,
 * trust auth on 127.0.0.1. Returns { port, pid, user, database, stop() }.
 */
async function startPostgres(dir) {
	const ids = postgresIds();
	const root = path.join(dir, 'pg');
	fs.mkdirSync(root, { recursive: true, mode: 0o700 });
	if (ids.uid !== undefined) fs.chownSync(root, ids.uid, ids.gid);
	// The temp parent must let the postgres user reach its folder.
	fs.chmodSync(dir, 0o755);
	const data = path.join(root, 'data');
	const logFile = path.join(root, 'postgres.log');
	const init = await new Promise((resolve) => {
		const child = childProcess.spawn(path.join(PG_BIN, 'initdb'), ['-D', data, '-U', 'n8n', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
			stdio: ['ignore', 'pipe', 'pipe'],
			...ids,
		});
		let out = '';
		child.stdout.on('data', (d) => (out += d));
		child.stderr.on('data', (d) => (out += d));
		child.on('close', (code) => resolve({ code, out }));
	});
	if (init.code !== 0) throw new Error(`initdb failed (exit ${init.code}):\n${tail(init.out, 20)}`);
	const port = await freePort();
	const daemon = spawnDaemon(
		path.join(PG_BIN, 'postgres'),
		['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${root}`, '-c', 'fsync=off', '-c', 'max_connections=200'],
		logFile,
		ids,
	);
	await waitFor('postgres', async () => (await tcpOpen(port)) && (await pgAccepts(root, port)), daemon, logFile);
	const created = await run(path.join(PG_BIN, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', 'n8n']);
	if (created.code !== 0) {
		await daemon.stop();
		throw new Error(`createdb failed: ${created.stderr}`);
	}
	return { port, pid: daemon.pid, user: 'n8n', database: 'n8n', stop: daemon.stop };
}

async function pgAccepts(root, port) {
	const res = await run(path.join(PG_BIN, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]);
	return res.code === 0;
}

/** n8n's settings for this Redis and PostgreSQL. */
function queueEnv(redis, pg) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(pg.port),
		DB_POSTGRESDB_DATABASE: pg.database,
		DB_POSTGRESDB_USER: pg.user,
		DB_POSTGRESDB_PASSWORD: '',
	};
}

/** One SQL query's answer as text (psql -tA), for checks that read n8n's own database. */
async function pgQuery(pg, sql) {
	const res = await run(path.join(PG_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(pg.port), '-U', pg.user, '-d', pg.database, '-tAc', sql]);
	if (res.code !== 0) throw new Error(`psql failed (exit ${res.code}): ${res.stderr}`);
	return res.stdout.trim();
}

module.exports = { ensureDebianPackages, startRedis, startPostgres, queueEnv, pgQuery };
