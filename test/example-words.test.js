'use strict';
// The examples speak the node's and n8n's words: every label their sticky notes and
// examples/README.md quote is one the form shows (the built description of the node, the trigger
// and the credential), a switch said to be on or off is a switch, a value given to a field is one
// of its options, and n8n's own words are 2.x's (*Publish*), with 1.x's only in brackets.
//
// A quoted label is an italic span, *Label* (spans starting lower-case are emphasis: *before*);
// "A → B" is a path (a resource and its operation, n8n's menus), "Label: Value" or "Label = Value"
// a field and its option; a bold span holding a path, or ending in " on" / " off", is read the same
// way (**Wait for Result off**). *Label* followed by on/off (*Wait for Result* **off**, "… off,")
// names a switch; *Label*: Value after the span, an option. Code spans and README section names
// (README: *…*, checked by doc-links.test.js) are not labels.
const fs = require('node:fs');
const path = require('node:path');

const { loadNode } = require('./harness');

const ROOT = path.resolve(__dirname, '..');
const EXAMPLES = path.join(ROOT, 'examples');

// n8n's own words the examples may quote (2.41.1's editor): its settings, menus, nodes, types.
const N8N_WORDS = [
	'Settings', 'On Error', 'Continue (using error output)', 'Execute workflow', 'Executions',
	'Import', 'From file', 'Publish', 'Overview', 'Data tables', 'Create', 'Data table', 'String',
	'Read/Write Files from Disk', 'OpenAI', 'Base URL', 'API Key', 'Chat Trigger', 'Manual Trigger',
	'Credentials', 'Add credential', 'Unified AI Gateway Tool', 'HTTP Request',
];
// n8n 1.x's words where 2.x says another: only inside a bracket that says "n8n 1.x".
const N8N_1X_WORDS = ['Activate', 'Active', 'Import from File…'];

/** Every label the form shows → { types, options }; a label's short form drops a trailing "(…)". */
function formLabels() {
	const labels = new Map();
	const short = (text) => text.replace(/\s*\([^)]*\)$/, '');
	const add = (label, type, options = []) => {
		for (const key of new Set([label, short(label)])) {
			const entry = labels.get(key) ?? { types: new Set(), options: new Set() };
			entry.types.add(type);
			for (const o of options) entry.options.add(o);
			labels.set(key, entry);
		}
	};
	const walk = (props) => {
		for (const p of props ?? []) {
			const optionNames = (p.options ?? []).filter((o) => o.value !== undefined).flatMap((o) => [o.name, short(o.name), o.name.split(',')[0].replace(/\s*\(.*$/, '')]);
			if (p.displayName) add(p.displayName, p.type ?? 'group', optionNames);
			for (const o of p.options ?? []) {
				if (o.value !== undefined) add(o.name, 'option');
				else walk([o]);
			}
			walk(p.values);
		}
	};
	const node = loadNode('unifiedAiGateway').description;
	const trigger = loadNode('unifiedAiGatewayTrigger').description;
	const chatModel = loadNode('unifiedAiGatewayChatModel').description;
	const { UnifiedAiGatewayApi } = require(path.join(ROOT, 'dist/credentials/UnifiedAiGatewayApi.credentials.js'));
	const credential = new UnifiedAiGatewayApi();
	walk(node.properties);
	walk(trigger.properties);
	walk(credential.properties);
	walk(chatModel.properties);
	for (const name of [node.displayName, trigger.displayName, chatModel.displayName, credential.displayName]) add(name, 'name');
	return labels;
}

/** What a text quotes that the form and n8n do not show, in words; nodeNames: the workflow's own. */
function wordProblems(text, labels, nodeNames = []) {
	const problems = [];
	const known = (part) => labels.has(part) || N8N_WORDS.includes(part) || nodeNames.includes(part);
	const switchState = (label, state) => {
		if (!labels.get(label)?.types.has('boolean')) problems.push(`"${label} ${state}": ${labels.has(label) ? `${label} is no switch` : `the form has no switch ${label}`}`);
	};
	const checkPart = (part) => {
		const pair = /^(.+?)(?:: | = )(.+)$/.exec(part);
		if (pair && known(pair[1]) && known(pair[2]) && !labels.has(pair[1])) return; // n8n's own: On Error: Continue (…)
		if (pair) return checkValue(pair[1], pair[2]);
		if (N8N_1X_WORDS.includes(part)) problems.push(`*${part}*: n8n 1.x's word, in 2.x's place`);
		else if (!known(part)) problems.push(`*${part}*: not a label of the form, nor n8n's`);
	};
	const checkValue = (label, value) => {
		const entry = labels.get(label);
		if (!entry) problems.push(`*${label}*: not a label of the form, nor n8n's`);
		else if (!entry.options.has(value)) problems.push(`${label}: "${value}" is not one of its options`);
	};
	// 1.x's words are fine in a bracket that says it is 1.x; elsewhere they are not 2.x's.
	const prose = text
		.replace(/```[^]*?```/g, '')
		.replace(/`[^`]*`/g, '`code`')
		.replace(/\([^()]*\bn8n 1\.x\b[^()]*\)/g, '')
		.replace(/README: \*[^*\n]+\*/g, '');
	for (const m of prose.matchAll(/\bactiv(?:at\w*|e)\b/gi)) problems.push(`"${m[0]}": n8n 2.x says Publish (1.x's word only in brackets: "(n8n 1.x: *Activate*)")`);
	for (const m of prose.matchAll(/(?<![*\w])\*(?!\*)([^*\n]+?)\*(?![*\w])(\s*\*{0,2}(on|off)(?=\*\*|\s*[),.;:(]|\s*$))?(?::\s+([^),;.\n]+))?/g)) {
		const [, span, , state, value] = m;
		if (/^[^A-Z]/.test(span)) continue;
		if (state) switchState(span, state);
		else if (value && labels.has(span)) checkValue(span, value.trim());
		for (const part of span.split(' → ')) checkPart(part);
	}
	for (const m of prose.matchAll(/\*\*([^*\n]+?)\*\*/g)) {
		const onOff = /^(.+) (on|off)$/.exec(m[1]);
		if (onOff) switchState(onOff[1], onOff[2]);
		else if (m[1].includes(' → ')) for (const part of m[1].split(' → ')) checkPart(part);
	}
	return problems;
}

/** Each sticky note of examples/*.json and examples/README.md, with the node names it may quote. */
function exampleTexts() {
	const workflows = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')).map((f) => [f, JSON.parse(fs.readFileSync(path.join(EXAMPLES, f), 'utf8'))]);
	const names = (wf) => wf.nodes.map((n) => n.name);
	const notes = workflows.flatMap(([file, wf]) =>
		wf.nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote').map((n) => ({ where: `${file}: ${n.name}`, text: n.parameters.content, nodeNames: names(wf) })),
	);
	const readme = { where: 'examples/README.md', text: fs.readFileSync(path.join(EXAMPLES, 'README.md'), 'utf8'), nodeNames: workflows.flatMap(([, wf]) => names(wf)) };
	return [...notes, readme];
}

const labels = formLabels();

test('every label the examples quote is one the node, the trigger, the credential or n8n 2.x shows', () => {
	const texts = exampleTexts();
	expect(texts.length).toBeGreaterThanOrEqual(8);
	const found = texts.flatMap(({ where, text, nodeNames }) => wordProblems(text, labels, nodeNames).map((p) => `${where}: ${p}`));
	expect(found).toEqual([]);
});

test('the words the examples used before are caught: a Task operation as a switch, activate, labels the form lacks', () => {
	// The field that submits without waiting is the switch Wait for Result; Wait for Completion is a Task operation.
	expect(labels.get('Wait for Result').types.has('boolean')).toBe(true);
	expect(labels.get('Wait for Completion').types.has('boolean')).toBe(false);
	expect(wordProblems('sends each prompt once with *Wait for Completion* **off** (it returns the task IDs at once)', labels)).toEqual([
		'"Wait for Completion off": Wait for Completion is no switch',
	]);
	expect(wordProblems('sends its prompt to nano-banana with **Wait for Completion off** (it returns at once)', labels)).toEqual([
		'"Wait for Completion off": Wait for Completion is no switch',
	]);
	expect(wordProblems('your credential in **Check Tasks**; activate for the schedule.', labels, ['Check Tasks'])).toEqual([
		'"activate": n8n 2.x says Publish (1.x\'s word only in brackets: "(n8n 1.x: *Activate*)")',
	]);
	expect(wordProblems('Import one in n8n with **Workflows → Import from File…**', labels)).toEqual([
		"*Workflows*: not a label of the form, nor n8n's",
		"*Import from File…*: n8n 1.x's word, in 2.x's place",
	]);
	expect(wordProblems('(*Max Wait* 0.5, *On Timeout*: Return Pending Items) and *Poll Every* 5 s', labels)).toEqual([
		'On Timeout: "Return Pending Items" is not one of its options',
		"*Poll Every*: not a label of the form, nor n8n's",
	]);
	// And the same words said right pass.
	expect(
		wordProblems(
			'with *Wait for Result* **off**; *Publish* it (n8n 1.x: *Activate*); *On Timeout*: Return Pending Item; *Task → Wait for Completion*; *Reference Images From: Binary Data*; *Settings → On Error → Continue (using error output)*',
			labels,
		),
	).toEqual([]);
});
