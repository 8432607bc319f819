'use strict';
// The output schemas and codex files n8n reads beside the built node: one schema per operation, in
// the form n8n's editor accepts, copied by the build; the validator the harness and the e2e use
// catches drift; the codex names the node, its categories, search words and documentation links.
const fs = require('node:fs');
const path = require('node:path');
const { allOperations, schemaPath, loadSchema, outputProblems, assertOutputMatchesSchema, assertRunMatchesSchemas, NODE_TYPE, VERSION_DIR } = require('.');

const ROOT = path.resolve(__dirname, '..', '..');
const PKG = require('../../package.json');

test('every operation has an output schema n8n serves to the editor, and no schema is left over', () => {
	// Every operation the node's description offers, read from it (no count to keep up to date):
	// each resource's operation list, every resource of the Resource field among them.
	const operations = allOperations();
	const { loadNode } = require('../harness');
	const resources = loadNode('unifiedAiGateway').description.properties.find((p) => p.name === 'resource').options.map((o) => o.value);
	expect([...new Set(operations.map(([resource]) => resource))].sort()).toEqual([...resources].sort());
	for (const [resource, operation] of operations) {
		const schema = loadSchema(resource, operation);
		// n8n's editor drops a schema that is not an object with properties (schemaPreview store).
		expect(schema.type).toBe('object');
		expect(Object.keys(schema.properties).length).toBeGreaterThan(0);
		for (const field of schema.required ?? []) expect(Object.keys(schema.properties)).toContain(field);
		// The build copies it beside the built node, where n8n looks (`__schema__/v<version>/…`).
		const built = schemaPath(resource, operation, path.join(ROOT, 'dist/nodes/UnifiedAiGateway'));
		expect(fs.readFileSync(built, 'utf8')).toBe(fs.readFileSync(schemaPath(resource, operation), 'utf8'));
	}
	const dir = path.join(ROOT, 'nodes/UnifiedAiGateway/__schema__', VERSION_DIR);
	const files = fs.readdirSync(dir).flatMap((r) => fs.readdirSync(path.join(dir, r)).map((f) => `${r}/${f.replace(/\.json$/, '')}`));
	expect(files.sort()).toEqual(operations.map(([r, o]) => `${r}/${o}`).sort());
});

test('the validator refuses a field the schema lacks, a wrong type and a missing required field', () => {
	const ok = { taskId: 't1', status: 'completed', state: 'succeeded', progress: 100, url: 'https://x/a.png', urls: ['https://x/a.png'], queryRoute: 'generic', raw: { any: 1 } };
	const params = { resource: 'task', operation: 'get' };
	expect(outputProblems(params, [{ json: ok }])).toEqual([]);
	// undefined is what n8n drops when it stores the item: absent, not a wrong type.
	expect(outputProblems(params, [{ json: { ...ok, progress: undefined } }])).toEqual([]);
	expect(outputProblems(params, [{ json: { ...ok, receipt: 'x' } }])).toEqual(["task → get, item 0: $: field 'receipt' is not in the schema"]);
	expect(outputProblems(params, [{ json: { ...ok, progress: '50%' } }])[0]).toMatch(/\$\.progress: string "50%", the schema says number/);
	expect(outputProblems(params, [{ json: { ...ok, state: 'done' } }])[0]).toMatch(/\$\.state: "done" is not one of/);
	const { raw, ...withoutRaw } = ok;
	expect(raw).toBeDefined();
	expect(outputProblems(params, [{ json: withoutRaw }])[0]).toMatch(/required field 'raw' missing/);
	// An On Error = Continue item carries the error shape instead.
	expect(outputProblems(params, [{ json: { error: 'Task t1 failed: nsfw', taskId: 't1', created: 'yes' } }])).toEqual([]);
	// The defaults of the node apply: no resource means Image, no operation its first one.
	expect(() => assertOutputMatchesSchema({}, [{ json: { model: 'gpt-image-2' } }])).toThrow(
		/image\/generate\.json .*\n.*required field 'request' missing/,
	);
});

test('an n8n run (the e2e path): each node of ours is checked with its own resource and operation, other nodes are not', () => {
	const nodes = [
		{ name: 'Balance', type: NODE_TYPE, parameters: { resource: 'account', operation: 'getTokenBalance' } },
		{ name: 'Set', type: 'n8n-nodes-base.set', parameters: {} },
	];
	const balance = { balanceType: 'token', unlimitedQuota: false, remainingBalance: 5, usedBalance: 1, summary: '5 remaining, 1 used', unit: 'USD', raw: {} };
	const run = (json) => ({ data: { resultData: { runData: { Balance: [{ data: { main: [[{ json }]] } }], Set: [{ data: { main: [[{ json: { anything: 1 } }]] } }] } } } });
	expect(assertRunMatchesSchemas(run(balance), nodes)).toEqual(['Balance']);
	expect(() => assertRunMatchesSchemas(run({ ...balance, remainingBalance: true }), nodes)).toThrow(
		/node "Balance": output does not match its schema .*account\/getTokenBalance\.json[^]*\$\.remainingBalance: boolean/,
	);
});

const NODES = [
	['UnifiedAiGateway', 'unifiedAiGateway', ['veo', 'seedance', 'kling', 'hailuo', 'vidu', 'wan', 'grok', 'nano banana', 'gemini', 'gpt image', 'image', 'video', 'text to image', 'image to video']],
	['UnifiedAiGatewayTrigger', 'unifiedAiGatewayTrigger', ['veo', 'seedance', 'video', 'image']],
];
// The categories n8n lets a community node declare (its codex documentation; the community lint's
// valid-node-categories). "AI" and subcategories are reserved for n8n's own AI nodes and nodes built
// with its AI node SDK (no-ai-codex-category, no-codex-subcategories): an AI-categorised community
// node can drop out of the main search. The search words (alias) keep the node findable.
const N8N_CATEGORIES = ['Analytics', 'Communication', 'Data & Storage', 'Development', 'Finance & Accounting', 'Marketing & Content', 'Miscellaneous', 'Productivity', 'Sales', 'Utility'];

// GitHub's anchors of the README's headings (test/doc-links.js checks every documentation link).
const { anchorsOf } = require('../doc-links');

test.each(NODES)('%s.node.json: the node, n8n categories, search words, documentation links to README sections; copied by the build', (file, name, words) => {
	const source = path.join(ROOT, 'nodes', file, `${file}.node.json`);
	const codex = JSON.parse(fs.readFileSync(source, 'utf8'));
	const NodeClass = Object.values(require(path.join(ROOT, 'dist/nodes', file, `${file}.node.js`)))[0];
	const { description } = new NodeClass();
	expect(codex.node).toBe(`${PKG.name}.${name}`);
	expect(description.name).toBe(name);
	expect(codex.nodeVersion).toBe(`${description.version}.0`);
	expect(codex.categories).toEqual(['Marketing & Content']);
	for (const category of codex.categories) expect(N8N_CATEGORIES).toContain(category);
	expect(codex).not.toHaveProperty('subcategories');
	expect(codex.alias).toEqual(expect.arrayContaining(words));
	const repo = PKG.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
	const anchors = anchorsOf('README.md');
	for (const key of ['primaryDocumentation', 'credentialDocumentation']) {
		const [{ url }] = codex.resources[key];
		expect(url.startsWith(`${repo}?tab=readme-ov-file#`)).toBe(true);
		expect(anchors).toContain(url.split('#')[1]);
	}
	expect(fs.readFileSync(path.join(ROOT, 'dist/nodes', file, `${file}.node.json`), 'utf8')).toBe(fs.readFileSync(source, 'utf8'));
});

test('the credential\'s documentation link goes to a README section (n8n shows it in the credential form)', () => {
	const Credential = Object.values(require(path.join(ROOT, 'dist/credentials/UnifiedAiGatewayApi.credentials.js')))[0];
	const { documentationUrl } = new Credential();
	const repo = PKG.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
	const anchors = anchorsOf('README.md');
	expect(documentationUrl).toBe(`${repo}?tab=readme-ov-file#credentials`);
	expect(anchors).toContain('credentials');
});
