'use strict';
// The one place that checks a node output against its output schema
// (nodes/UnifiedAiGateway/__schema__/v1.0.0/<resource>/<operation>.json, what n8n's editor shows
// for mapping before the node has run). Used by the harness (every runNode in the jest suites) and
// by the e2e assertion path (every node of ours in every e2e run), so a schema cannot drift from
// what the node emits: a field the node emits that its schema lacks, a field of the wrong type, or a
// required field missing fails the test that produced it.
//
// The schemas are JSON Schema (draft-07) in the subset n8n's own schemas use: type (one or a
// list), properties, required, items, enum, description. A property set to undefined counts as
// absent (n8n drops it when it stores the item). Items of On Error = Continue carry the error item
// shape below instead of the operation's.
const fs = require('node:fs');
const path = require('node:path');

const SOURCE_NODE_DIR = path.resolve(__dirname, '../../nodes/UnifiedAiGateway');
const NODE_TYPE = 'n8n-nodes-unified-ai-gateway.unifiedAiGateway';
const VERSION_DIR = 'v1.0.0';

/** What a failed input item becomes under On Error = Continue (engine/running/perItem.ts, engine/running/jobRunner.ts). */
const ERROR_ITEM = {
	type: 'object',
	required: ['error'],
	properties: {
		error: { type: 'string' },
		description: { type: 'string' },
		taskId: { type: 'string' },
		created: { type: 'string', enum: ['no', 'unknown', 'yes'] },
		status: { type: 'string' },
		// A result file that could not be fetched: the item keeps its receipt (url, taskId) beside the error.
		downloadFailed: { type: 'boolean' },
		// The spend guard's summary rides on the run's first item, failed or not.
		spendSummary: { type: 'object' },
		// A failed task whose answer carries its charge (0 after the gateway's refund).
		charge: { type: 'object' },
	},
};

/** The operation's item with the error fields beside it: what a failed download under Continue On Fail outputs. */
function asErrorItem(schema) {
	return { ...schema, required: ['error'], properties: { ...schema.properties, ...ERROR_ITEM.properties } };
}

let defaults;
/** Resource and operation defaults from the node's own description (what n8n assumes when unset). */
function nodeDefaults() {
	if (defaults) return defaults;
	const { UnifiedAiGateway } = require(path.resolve(__dirname, '../../dist/nodes/UnifiedAiGateway/UnifiedAiGateway.node.js'));
	const { properties } = new UnifiedAiGateway().description;
	const operations = {};
	for (const p of properties.filter((p) => p.name === 'operation')) {
		for (const resource of p.displayOptions.show.resource) operations[resource] = { default: p.default, values: p.options.map((o) => o.value) };
	}
	defaults = { resource: properties.find((p) => p.name === 'resource').default, operations };
	return defaults;
}

/** [resource, operation] of a node's parameters, with the node's defaults. */
function operationOf(parameters = {}) {
	const d = nodeDefaults();
	const resource = parameters.resource ?? d.resource;
	return [resource, parameters.operation ?? d.operations[resource]?.default];
}

/** Every [resource, operation] the node offers. */
function allOperations() {
	const d = nodeDefaults();
	return Object.entries(d.operations).flatMap(([resource, { values }]) => values.map((operation) => [resource, operation]));
}

function schemaPath(resource, operation, nodeDir = SOURCE_NODE_DIR) {
	return path.join(nodeDir, '__schema__', VERSION_DIR, resource, `${operation}.json`);
}

function loadSchema(resource, operation, nodeDir) {
	const file = schemaPath(resource, operation, nodeDir);
	if (!fs.existsSync(file)) throw new Error(`no output schema for ${resource} → ${operation} (${path.relative(process.cwd(), file)})`);
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

const typeOf = (value) => {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
	return typeof value;
};

/** Problems of value against schema, as "at.path: what"; empty when it conforms. */
function validate(schema, value, at = '$') {
	const problems = [];
	if (schema.type) {
		const allowed = [].concat(schema.type);
		const actual = typeOf(value);
		if (!allowed.includes(actual) && !(actual === 'integer' && allowed.includes('number'))) {
			return [`${at}: ${actual} ${JSON.stringify(value)?.slice(0, 80)}, the schema says ${allowed.join(' or ')}`];
		}
	}
	if (schema.enum && !schema.enum.includes(value)) problems.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
	if (typeOf(value) === 'object') {
		const present = Object.keys(value).filter((k) => value[k] !== undefined);
		for (const key of schema.required ?? []) if (!present.includes(key)) problems.push(`${at}: required field '${key}' missing`);
		if (schema.properties) {
			for (const key of present) {
				const sub = schema.properties[key];
				if (sub) problems.push(...validate(sub, value[key], `${at}.${key}`));
				else if (schema.additionalProperties !== true) problems.push(`${at}: field '${key}' is not in the schema`);
			}
		}
	}
	if (typeOf(value) === 'array' && schema.items) value.forEach((v, i) => problems.push(...validate(schema.items, v, `${at}[${i}]`)));
	return problems;
}

/**
 * Problems of each output item's json against the schema of the node's resource and operation,
 * as strings naming the item; empty when every item conforms.
 */
function outputProblems(parameters, items, nodeDir) {
	const [resource, operation] = operationOf(parameters);
	const schema = loadSchema(resource, operation, nodeDir);
	return items.flatMap((item, index) => {
		const json = item.json ?? item;
		const problems = validate(schema, json);
		// An error item is the error shape, or the operation's own item (its receipt) plus the error fields.
		if (problems.length === 0 || validate(ERROR_ITEM, json).length === 0 || validate(asErrorItem(schema), json).length === 0) return [];
		return [`${resource} → ${operation}, item ${index}: ${problems.join('; ')}`];
	});
}

/** Throws when an output item does not match its schema (the message names the schema file to update). */
function assertOutputMatchesSchema(parameters, items, nodeDir) {
	const problems = outputProblems(parameters, items, nodeDir);
	if (problems.length === 0) return;
	const [resource, operation] = operationOf(parameters);
	throw new Error(
		`output does not match its schema nodes/UnifiedAiGateway/__schema__/${VERSION_DIR}/${resource}/${operation}.json ` +
			`(update the schema with the node's output):\n  ${problems.slice(0, 10).join('\n  ')}`,
	);
}

/** Every node of ours in an n8n run (run data + the workflow's nodes): checks its output items. */
function assertRunMatchesSchemas(run, workflowNodes) {
	const runData = run?.data?.resultData?.runData ?? {};
	const checked = [];
	for (const node of workflowNodes.filter((n) => n.type === NODE_TYPE)) {
		for (const task of runData[node.name] ?? []) {
			const items = task.data?.main?.[0] ?? [];
			if (items.length === 0) continue;
			try {
				assertOutputMatchesSchema(node.parameters, items);
			} catch (error) {
				error.message = `node "${node.name}": ${error.message}`;
				throw error;
			}
			checked.push(node.name);
		}
	}
	return checked;
}

module.exports = {
	NODE_TYPE,
	VERSION_DIR,
	ERROR_ITEM,
	allOperations,
	operationOf,
	schemaPath,
	loadSchema,
	validate,
	outputProblems,
	assertOutputMatchesSchema,
	assertRunMatchesSchemas,
};
