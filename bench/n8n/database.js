'use strict';
/*
 * How much n8n's own database holds, read from outside n8n while it runs (the durable bench: a
 * parked execution is saved whole at every round, a trigger's state at every poll):
 *
 *   regular  the SQLite file n8n writes (<userFolder>/.n8n/database.sqlite and its -wal journal):
 *            totalBytes, the files' bytes (they grow in steps, and SQLite reuses freed pages
 *            before it grows them), and usedBytes, the pages in use (page_count − freelist_count,
 *            through the sqlite3 CLI, read-only: the journal's pages count as n8n sees them)
 *   queue    PostgreSQL: totalBytes, the database's size; usedBytes, its tables' (the public
 *            schema, pg_total_relation_size: data, TOAST and indexes, row versions an UPDATE left
 *            behind for the vacuum included: each save of an execution writes it whole)
 *
 * Both also give tables: { name: bytes }; the binary data table (2.x queue mode keeps result files
 * in the database) is named so it can be told apart from the executions.
 */

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const { pgQuery } = require('../../test/queue/services');

/** n8n's tables the durable bench reports on their own. */
const TABLES = ['execution_data', 'execution_entity', 'binary_data', 'workflow_entity', 'workflow_statistics', 'poller_state'];

const fileBytes = (file) => {
	try {
		return fs.statSync(file).size;
	} catch {
		return 0;
	}
};

function sqlite(file, sql) {
	return execFileSync('sqlite3', ['-readonly', file, sql], { encoding: 'utf8', timeout: 60_000 }).trim();
}

function sqliteSize(userFolder) {
	const file = path.join(userFolder, '.n8n', 'database.sqlite');
	const totalBytes = fileBytes(file) + fileBytes(`${file}-wal`);
	const [pageSize, pages, free] = sqlite(file, 'PRAGMA page_size; PRAGMA page_count; PRAGMA freelist_count;').split('\n').map(Number);
	const tables = {};
	// dbstat is not built into every sqlite3; the stored text of the executions is what a round writes.
	const known = sqlite(file, "SELECT name FROM sqlite_master WHERE type = 'table'").split('\n');
	if (known.includes('execution_data')) tables.execution_data = Number(sqlite(file, 'SELECT COALESCE(SUM(LENGTH(data) + LENGTH(workflowData)), 0) FROM execution_data')) || 0;
	if (known.includes('binary_data')) tables.binary_data = Number(sqlite(file, 'SELECT COALESCE(SUM(LENGTH(data)), 0) FROM binary_data')) || 0;
	return { totalBytes, usedBytes: (pages - free) * pageSize, tables };
}

async function postgresSize(pg) {
	const totalBytes = Number(await pgQuery(pg, 'SELECT pg_database_size(current_database())'));
	const rows = await pgQuery(pg, `SELECT relname, pg_total_relation_size(oid) FROM pg_class WHERE relkind = 'r' AND relname IN (${TABLES.map((t) => `'${t}'`).join(', ')})`);
	const tables = {};
	for (const line of rows.split('\n').filter(Boolean)) {
		const [name, bytes] = line.split('|');
		tables[name] = Number(bytes);
	}
	const used = await pgQuery(pg, "SELECT COALESCE(SUM(pg_total_relation_size(oid)), 0) FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace");
	return { totalBytes, usedBytes: Number(used), tables };
}

/** The database of a bench stack (stack.js): SQLite in regular mode, PostgreSQL in queue mode. */
async function databaseSize(stack) {
	return stack.pg ? await postgresSize(stack.pg) : sqliteSize(stack.userFolder);
}

/** after − before, table by table. */
function growth(before, after) {
	const tables = {};
	for (const name of new Set([...Object.keys(before.tables), ...Object.keys(after.tables)])) tables[name] = (after.tables[name] ?? 0) - (before.tables[name] ?? 0);
	return { totalBytes: after.totalBytes - before.totalBytes, usedBytes: after.usedBytes - before.usedBytes, tables };
}

module.exports = { databaseSize, growth };
