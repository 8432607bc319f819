'use strict';
// The registry's lookups (registry/models.ts): a model's row by its id and host (findModel), the
// ids with a row on more than one host (multiHostIds), and the kind an id of GET /v1/models is
// given (modelKind: the registry's row, then a tag that says the kind, then the name, then a
// text-only wire format's tag, else a guess), as the pickers and List Models use it.
// models-today.test.js runs the same classification through n8n's model pickers against the
// simulator.
//
// The module is loaded afresh in each test (fresh-modules.js says why).
const built = require('./fresh-modules').freshEachTest();
const models = built(() => require('../dist/nodes/UnifiedAiGateway/registry/models.js'));

describe('findModel: the row of an id (and a host)', () => {
	test('an id with spaces around it (typed, or from an expression) finds its row', () => {
		expect(models.findModel(' gpt-image-2 ')).toMatchObject({ id: 'gpt-image-2', group: 'image', host: 'main' });
	});

	test('an id on two hosts: each host finds its own row, no host the first; another host none', () => {
		expect(models.findModel('gemini-3-pro-image-preview', 'alt')).toMatchObject({ id: 'gemini-3-pro-image-preview', host: 'alt' });
		expect(models.findModel('gemini-3-pro-image-preview', 'main')).toMatchObject({ host: 'main' });
		expect(models.findModel('gemini-3-pro-image-preview')).toMatchObject({ host: 'main' });
		expect(models.findModel('gpt-image-2', 'alt')).toBeUndefined();
		expect(models.findModel('no-such-model')).toBeUndefined();
	});

	test('multiHostIds: the ids whose rows name more than one host', () => {
		expect(models.multiHostIds(models.MODELS)).toEqual(['gemini-3-pro-image-preview']);
	});
});

describe('modelKind: the kind of an id the gateway lists', () => {
	test("each group's name as the node shows it", () => {
		const { MODEL_GROUPS } = require('../dist/nodes/UnifiedAiGateway/registry/groups.js');
		// A group is shown under its resource's name: the Resource field's entry of the same value.
		const { loadNode } = require('./harness');
		const resources = loadNode('unifiedAiGateway').description.properties.find((p) => p.name === 'resource').options;
		const named = Object.entries(MODEL_GROUPS).map(([id, group]) => [id, group.name]);
		expect(named).toEqual(Object.keys(MODEL_GROUPS).map((id) => [id, resources.find((r) => r.value === id)?.name]));
		expect(Object.fromEntries(named)).toMatchObject({ text: 'Text', image: 'Image', video: 'Video' });
	});

	test.each([
		['a registry row, whatever its tags', 'gpt-image-2', ['openai-video'], { group: 'image', by: 'table' }],
		['a row found with spaces around the id', ' veo-3.1-flash ', [], { group: 'video', by: 'table' }],
		['a video tag', 'mystery-model', ['openai', 'openai-video'], { group: 'video', by: 'tags' }],
		['an image tag', 'mystery-model', ['image-generation'], { group: 'image', by: 'tags' }],
		['a video tag before an image one', 'mystery-model', ['image-generation', 'openai-video'], { group: 'video', by: 'tags' }],
		['a tag that is not text is left out', 'mystery-model', [7, null, 'image-generation'], { group: 'image', by: 'tags' }],
		['the name before a text-only tag', 'wan2.6-t2i', ['chat'], { group: 'image', by: 'name' }],
		['a kind word in the name', 'acme-i2v-pro', ['openai'], { group: 'video', by: 'name' }],
		['a family in the name', 'claude-sonnet-9', [], { group: 'text', by: 'name' }],
		['a text-only tag among others', 'mystery-model', ['openai', 'anthropic'], { group: 'text', by: 'tags' }],
		['an embeddings tag', 'mystery-model', ['embeddings'], { group: 'text', by: 'tags' }],
		['tags that say nothing of the kind: a guess', 'mystery-model', ['openai', 'gemini', 'openai-response'], { group: 'text', by: 'none' }],
		['no tags: a guess', 'mystery-model', [], { group: 'text', by: 'none' }],
		['tags that are no list (a hostile answer): a guess', 'mystery-model', 'openai-video', { group: 'text', by: 'none' }],
		['tags absent: a guess', 'mystery-model', undefined, { group: 'text', by: 'none' }],
		['a tag that is a list of a kind word (a hostile answer): left out', 'mystery-model', [['openai-video']], { group: 'text', by: 'none' }],
		['dalle without its hyphen: an image tag', 'mystery-model', ['dalle'], { group: 'image', by: 'tags' }],
		['a reranker tag', 'mystery-model', ['rerank'], { group: 'text', by: 'tags' }],
		['an embedding tag', 'mystery-model', ['embedding'], { group: 'text', by: 'tags' }],
		['a completions tag', 'mystery-model', ['completions'], { group: 'text', by: 'tags' }],
		['a completion tag', 'mystery-model', ['openai-completion'], { group: 'text', by: 'tags' }],
		['a text-only word inside a longer tag is not one', 'mystery-model', ['chatbot', 'xanthropic'], { group: 'text', by: 'none' }],
		['a kind word in capitals', 'ACME-T2V-PRO', [], { group: 'video', by: 'name' }],
		['an image family in capitals', 'ACME-FLUX-2', [], { group: 'image', by: 'name' }],
		['a video family in capitals', 'KLING-X9', [], { group: 'video', by: 'name' }],
		['a video family', 'kling-x9', [], { group: 'video', by: 'name' }],
		['a text family in capitals', 'CLAUDE-X9', [], { group: 'text', by: 'name' }],
		['a family inside another word is not one', 'swanx-1', [], { group: 'text', by: 'none' }],
		['a kind word run on into letters is not one', 'acme-t2iz', [], { group: 'text', by: 'none' }],
	])('%s: %p %p → %p', (_, id, tags, kind) => {
		expect(models.modelKind(id, tags)).toEqual(kind);
	});
});
