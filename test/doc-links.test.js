'use strict';
// Every link a user can follow resolves: the Markdown files' relative links and #anchors, their
// references to a section by name, and every place the shipped node, trigger and credential send
// a user to the documentation (test/doc-links.js says how each is read).
const path = require('node:path');
const links = require('./doc-links');

const ROOT = path.resolve(__dirname, '..');

test('every link and anchor of the documentation and of the shipped code resolves', () => {
	expect(links.problems()).toEqual([]);
});

test('the documentation links the node, the trigger, the chat model and the credential carry are all checked', () => {
	const Credential = Object.values(require(path.join(ROOT, 'dist/credentials/UnifiedAiGatewayApi.credentials.js')))[0];
	const { documentationUrl } = new Credential();
	const refs = links.shippedReferences();
	const urls = refs.filter((r) => r.kind === 'url').map((r) => r.target);
	expect(urls).toContain(documentationUrl);
	for (const node of ['UnifiedAiGateway', 'UnifiedAiGatewayTrigger', 'UnifiedAiGatewayChatModel']) {
		const codex = require(path.join(ROOT, 'nodes', node, `${node}.node.json`));
		for (const [{ url }] of Object.values(codex.resources)) expect(urls).toContain(url);
	}
	// The hint that points to the Wait-node loop names its README section in words.
	expect(refs.filter((r) => r.kind === 'section').map((r) => r.target)).toContain('Long renders that survive a restart');
	for (const ref of refs) expect([ref.target, links.checkReference(ref)]).toEqual([ref.target, null]);
	// The credential's link before it was fixed went to a heading the README never had.
	expect(links.checkReference({ kind: 'url', target: documentationUrl.replace('#credentials', '#credential') })).toBe('README.md has no heading with the anchor #credential');
});

test("anchors follow GitHub's rule for a heading", () => {
	expect(links.slug('Image → Generate / Edit')).toBe('image--generate--edit');
	expect(links.slug('Polling under n8n 2.x')).toBe('polling-under-n8n-2x');
	expect(links.slug("As a tool for n8n's AI Agent")).toBe('as-a-tool-for-n8ns-ai-agent');
	expect(links.slug('`Retry On Fail` and [Queue mode](#x)')).toBe('retry-on-fail-and-queue-mode');
	expect(links.slug('§8 Limits')).toBe('8-limits');
	expect(links.anchorsOf('README.md')).toContain('credentials');
});

test('a broken file, anchor or section name is reported with its line', () => {
	const text = [
		'# A page',
		'[fine](#a-page) [fine](docs/INSTALL.md) [fine](examples/README.md#the-scheduled-batch-a-data-table-instead-of-pasted-ids)',
		'[gone](docs/NOPE.md) [no anchor](#credential) [no anchor there](docs/INSTALL.md#nope)',
		`[repo](${links.REPO}?tab=readme-ov-file#credential) [other site](https://docs.n8n.io/#nope)`,
		'```',
		'[inside code](#not-checked)',
		'```',
		'See README: *No such section* and docs/INSTALL.md, "Also not there"; `README: *code*` is code.',
	].join('\n');
	const found = [...links.brokenLinksOf('README.md', text), ...links.brokenSectionNamesOf('README.md', text)].map((b) => `${b.line} ${b.target}: ${b.why}`);
	expect(found).toEqual([
		'3 docs/NOPE.md: docs/NOPE.md does not exist',
		'3 #credential: README.md has no heading with the anchor #credential',
		'3 docs/INSTALL.md#nope: docs/INSTALL.md has no heading with the anchor #nope',
		`4 ${links.REPO}?tab=readme-ov-file#credential: README.md has no heading with the anchor #credential`,
		'8 README "No such section": README.md has no heading "No such section"',
		'8 docs/INSTALL.md "Also not there": docs/INSTALL.md has no heading "Also not there"',
	]);
});

test("the README is an n8n user's page: under 400 lines, its first screen says what the node does, how to get and install it today, and what the first release changes", () => {
	const lines = require('node:fs').readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n');
	expect(lines.length).toBeLessThan(400);
	const firstScreen = lines.slice(0, 30).join('\n');
	expect(firstScreen).toMatch(/This is an n8n community node/);
	expect(firstScreen).toMatch(/Not released yet/);
	// The file today: a clone and the light build, then the install by hand of docs/INSTALL.md.
	expect(firstScreen).toMatch(/\ngit clone \S+ (\S+)\ncd \1 && npm run pack:light\n/);
	expect(firstScreen).toMatch(/\nmkdir -p ~\/\.n8n\/nodes && cd ~\/\.n8n\/nodes\nnpm install --omit=peer \S+\.tgz\n/);
	expect(firstScreen).toMatch(/From the first release \(0\.1\.0\) on/);
	expect(firstScreen).toMatch(/\(docs\/INSTALL\.md#docker\)/);
});
