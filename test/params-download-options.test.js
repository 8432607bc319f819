'use strict';
// The download limits of the Options collection (params/downloadOptions.ts): the defaults the
// fields' descriptions tell per file kind and binary mode, and what the engine is handed for a
// value left out, 0, a number or an expression's text, and the refusal a user reads for the rest
// (node and trigger). faults/downloads.test.js runs the limits through n8n on real downloads.
const {
	downloadLimitOptions,
	readDownloadLimits,
} = require('../dist/nodes/UnifiedAiGateway/params/downloadOptions.js');

const NODE = {
	id: '1',
	name: 'Gateway',
	type: 'n8n-nodes-unified-ai-gateway.unifiedAiGateway',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** A node's context (it has getInputData) or a trigger's, with these Options; records what was asked. */
function context(options, { trigger = false } = {}) {
	const asked = [];
	const ctx = {
		getNode: () => NODE,
		getNodeParameter: (...args) => {
			asked.push(args);
			return options;
		},
	};
	if (!trigger) ctx.getInputData = () => [{ json: {} }];
	return { ctx, asked };
}

const refusal = (run) => {
	try {
		run();
	} catch (error) {
		return {
			message: error.message,
			description: error.description,
			itemIndex: error.context?.itemIndex,
		};
	}
	throw new Error('not refused');
};

const STREAMED = (mb) =>
	`${mb} MB where n8n streams files to disk (filesystem mode, 2.x's default) or to S3`;
const MEMORY =
	"24 MB while n8n keeps files in memory (1.x's default: set N8N_DEFAULT_BINARY_DATA_MODE=filesystem for more)";
const DATABASE = "512 MB in n8n's database mode (its own limit there)";

describe('downloadLimitOptions', () => {
	test.each([
		['image', `${STREAMED(50)}; ${MEMORY}`, '10 min for images'],
		['video', `${STREAMED(2048)}; ${DATABASE}; ${MEMORY}`, '30 min for videos'],
		[
			'any',
			`for an image ${STREAMED(50)}; ${MEMORY}; for a video ${STREAMED(2048)}; ${DATABASE}; ${MEMORY}; ` +
				`for an audio file ${STREAMED(50)}; ${MEMORY}`,
			'10 min for images, 30 min for videos and 10 min for audio files',
		],
	])('Max File Size of %s tells the default per binary mode', (kind, limit, ownBound) => {
		const [size, timeout] = downloadLimitOptions(kind);
		expect(size).toEqual({
			displayName: 'Max File Size (MB)',
			name: 'maxFileSizeMb',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: `Largest result file accepted when downloading, in MB. 0 (or left out) uses the default: ${limit}. A bigger file is not stored and the item fails with its URL or task ID.`,
		});
		expect(timeout).toEqual({
			displayName: 'Download Timeout (Seconds)',
			name: 'downloadTimeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: `Longest time all files of one item may take to download. 0 (or left out): inside Max Wait when waiting for a task, else ${ownBound} (a trigger always keeps to its poll budget). A file host that stops sending for 60 s fails sooner.`,
		});
	});
});

describe('readDownloadLimits', () => {
	test.each([
		[{}, {}],
		[undefined, {}],
		[{ maxFileSizeMb: 0, downloadTimeoutSeconds: 0 }, {}],
		[{ maxFileSizeMb: '0', downloadTimeoutSeconds: ' 0 ' }, {}],
		[{ maxFileSizeMb: 1 }, { maxBytes: 1048576 }],
		[{ maxFileSizeMb: 0.001 }, { maxBytes: 1049 }],
		[{ maxFileSizeMb: ' 2.5 ' }, { maxBytes: 2621440 }],
		[{ downloadTimeoutSeconds: 90 }, { timeoutMs: 90000 }],
		[{ downloadTimeoutSeconds: '1.5' }, { timeoutMs: 1500 }],
		[
			{ maxFileSizeMb: 20480, downloadTimeoutSeconds: 86400 },
			{ maxBytes: 21474836480, timeoutMs: 86400000 },
		],
	])('Options %p → %p', (options, expected) => {
		const { ctx } = context(options);
		const limits = readDownloadLimits(ctx, 0);
		expect(Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined))).toEqual(
			expected,
		);
	});

	test('the node reads its item’s Options, the trigger its own (no item)', () => {
		const node = context({ maxFileSizeMb: 3 });
		expect(readDownloadLimits(node.ctx, 4)).toEqual({ maxBytes: 3145728, timeoutMs: undefined });
		expect(node.asked).toEqual([['options', 4, {}]]);
		const trigger = context({ downloadTimeoutSeconds: 2 }, { trigger: true });
		expect(readDownloadLimits(trigger.ctx, 0)).toEqual({ maxBytes: undefined, timeoutMs: 2000 });
		expect(trigger.asked).toEqual([['options', {}]]);
	});

	test.each([
		[
			{ maxFileSizeMb: -1 },
			'Options → Max File Size (MB): -1 is out of range; it takes a number from 0.001 to 20480 MB, or 0 for the default of the file kind',
		],
		[
			{ maxFileSizeMb: 20481 },
			'Options → Max File Size (MB): 20481 is out of range; it takes a number from 0.001 to 20480 MB, or 0 for the default of the file kind',
		],
		[
			{ maxFileSizeMb: 'big' },
			'Options → Max File Size (MB): "big" is not a number; it takes a number from 0.001 to 20480 MB, or 0 for the default of the file kind',
		],
		[
			{ downloadTimeoutSeconds: '' },
			'Options → Download Timeout (Seconds): empty (the field or its expression gave no value); it takes a number from 1 to 86400 seconds, or 0 for Max Wait, or the own bound of the file kind',
		],
		[
			{ maxFileSizeMb: 5, downloadTimeoutSeconds: 0.5 },
			'Options → Download Timeout (Seconds): 0.5 is out of range; it takes a number from 1 to 86400 seconds, or 0 for Max Wait, or the own bound of the file kind',
		],
	])(
		'%p is refused on the node, naming the field, the item and that nothing was downloaded',
		(options, message) => {
			const { ctx } = context(options);
			expect(refusal(() => readDownloadLimits(ctx, 2))).toEqual({
				message,
				description:
					'Nothing was downloaded. If the value comes from an expression, check what it gives.',
				itemIndex: 2,
			});
		},
	);

	test('on the trigger the refusal names no item', () => {
		const { ctx } = context({ maxFileSizeMb: -1 }, { trigger: true });
		const error = refusal(() => readDownloadLimits(ctx, 0));
		expect(error.message).toMatch(/^Options → Max File Size \(MB\): -1 is out of range/);
		expect(error.description).toBe(
			'Nothing was downloaded. If the value comes from an expression, check what it gives.',
		);
		expect(error.itemIndex).toBeUndefined();
	});
});
