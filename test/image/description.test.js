'use strict';
// Image in the node's description: the resource and its operations, and the fields derived
// from the registry rows, per model.
const { loadNode } = require('../harness');

describe('node description', () => {
	const node = loadNode('unifiedAiGateway');
	const props = node.description.properties;
	const resource = props.find((p) => p.name === 'resource');
	const imageProps = props.filter((p) => p.displayOptions?.show?.resource?.includes('image'));
	const forModel = (name, id, operation = 'generate') =>
		imageProps.filter((p) => p.name === name && p.displayOptions.show.operation?.includes(operation) && p.displayOptions.show['/modelId']?.includes(id));

	test('Image is the first resource and the default, with Generate and Edit', () => {
		expect(resource.options[0].value).toBe('image');
		expect(resource.default).toBe('image');
		const operation = imageProps.find((p) => p.name === 'operation');
		expect(operation.options.map((o) => o.value)).toEqual(['generate', 'edit', 'analyze']);
		expect(operation.options.every((o) => /Returns/.test(o.description) && /cost/i.test(o.description))).toBe(true);
	});

	test('fields are derived from the registry rows, per model', () => {
		const size25 = forModel('size_gptImage25', 'gpt-image-2.5');
		expect(size25).toHaveLength(1);
		expect(size25[0].options.map((o) => o.value)).toHaveLength(21);
		expect(size25[0].options.find((o) => o.value === '2048x2048').name).toBe('2048x2048 (1.5× Price)');
		const size2 = forModel('size', 'gpt-image-2');
		expect(size2[0].options.map((o) => o.value)).toContain('16:9');
		expect(forModel('resolution', 'gpt-image-2')[0].options.map((o) => o.value)).toEqual(['1k', '2k', '4k']);
		expect(forModel('resolution', 'gpt-image-2.5')).toHaveLength(0);
		expect(forModel('n', 'nano-banana')).toHaveLength(0);
		const altOptions = forModel('imageOptions_gemini25FlashImage', 'gemini-2.5-flash-image', 'edit')[0];
		expect(altOptions.options.map((o) => o.name).sort()).toEqual(['aspect_ratio', 'image_size', 'size']);
		expect(altOptions.options.find((o) => o.name === 'image_size').options.map((o) => o.value)).toEqual(['1K', '2K', '4K']);
		const host = imageProps.find((p) => p.name === 'imageHost');
		expect(host.displayOptions.show['/modelId']).toEqual(['gemini-3-pro-image-preview']);
		expect(forModel('maskUrl', 'gpt-image-2', 'edit')).toHaveLength(1);
		expect(forModel('maskUrl', 'gpt-image-2.5', 'edit')).toHaveLength(0);
	});

	test('the waiting fields and Options show the defaults each operation declares: one set while Generate and Edit agree, one each when they differ', () => {
		const path = require('node:path');
		const dist = path.join(__dirname, '..', '..', 'dist', 'nodes', 'UnifiedAiGateway', 'actions', 'image');
		const { imageFieldsAfter } = require(path.join(dist, 'imageFields.js'));
		const generate = require(path.join(dist, 'generate.operation.js')).DEFAULTS;
		const edit = require(path.join(dist, 'edit.operation.js')).DEFAULTS;
		const shown = (fields, operation) => {
			const visible = fields.filter((p) => !p.displayOptions.show.operation || p.displayOptions.show.operation.includes(operation));
			const waiting = visible.filter((p) => p.name === 'waiting');
			const options = visible.filter((p) => p.name === 'options');
			expect([waiting.length, options.length]).toEqual([1, 1]);
			return {
				maxWaitMinutes: waiting[0].options.find((o) => o.name === 'maxWaitMinutes').default,
				concurrency: options[0].options.find((o) => o.name === 'concurrency').default,
			};
		};
		// The node's own fields, as each operation declares: one set while the two agree, one each
		// when they differ (whichever is true of the shipped DEFAULTS).
		// Analyze is a chat call: its Options are its own, and it has no waiting.
		const jobs = (p) => !(p.displayOptions?.show?.operation ?? []).every((o) => o === 'analyze');
		const today = imageProps.filter((p) => ['waitForCompletion', 'waiting', 'options'].includes(p.name) && jobs(p));
		const agree = JSON.stringify(generate) === JSON.stringify(edit);
		expect(today).toHaveLength(agree ? 3 : 6);
		expect(shown(today, 'generate')).toEqual({ maxWaitMinutes: generate.maxWaitMinutes, concurrency: generate.concurrency });
		expect(shown(today, 'edit')).toEqual({ maxWaitMinutes: edit.maxWaitMinutes, concurrency: edit.concurrency });
		// Agreeing operations share one set; an Edit that waits longer gets fields of its own.
		expect(imageFieldsAfter([['generate', generate], ['edit', generate]]).filter((p) => p.name === 'waiting')).toHaveLength(1);
		const apart = imageFieldsAfter([
			['generate', generate],
			['edit', { ...edit, maxWaitMinutes: 25, concurrency: 2 }],
		]);
		expect(apart.filter((p) => p.name === 'waitForCompletion')).toHaveLength(2);
		expect(shown(apart, 'generate')).toEqual({ maxWaitMinutes: generate.maxWaitMinutes, concurrency: generate.concurrency });
		expect(shown(apart, 'edit')).toEqual({ maxWaitMinutes: 25, concurrency: 2 });
	});
});
