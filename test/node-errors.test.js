'use strict';
// The node's own errors have one home (transport/nodeError.ts): the wrapper every error passes
// through before the node throws it carries the item it belongs to, whatever the error was, and a
// Stop anywhere is the one Stop error, which n8n takes for a cancelled run (test/faults/poll.test.js
// checks that through n8n-core), not a failure.
const path = require('node:path');
const { ManualExecutionCancelledError, NodeApiError, NodeOperationError } = require('n8n-workflow');

// Loaded afresh in each test (fresh-modules.js says why): the Stop message is set while the module loads.
const fresh = require('./fresh-modules').freshEachTest();
const errors = fresh(() => require(path.resolve(__dirname, '../dist/nodes/UnifiedAiGateway/transport/nodeError.js')));
const nodeErrorOf = (...args) => errors.nodeErrorOf(...args);
const stopError = (...args) => errors.stopError(...args);
const isStop = (error) => errors.isStop(error);

const node = { id: '1', name: 'Gateway', type: 'unifiedAiGateway', typeVersion: 1, position: [0, 0], parameters: {} };

describe('nodeErrorOf: one wrapper, always with the item', () => {
	test.each([
		['a plain Error', () => new Error('socket hang up')],
		['a NodeOperationError of no item', () => new NodeOperationError(node, 'refused')],
		['a NodeApiError (kept, not wrapped again)', () => new NodeApiError(node, { message: 'gateway said no' }, { message: 'gateway said no', httpCode: '502' })],
		['a NodeOperationError of another item', () => new NodeOperationError(node, 'refused', { itemIndex: 0 })],
	])('%s: an n8n node error naming item 3, its message kept', (_what, make) => {
		const error = make();
		const wrapped = nodeErrorOf(node, error, 3);
		expect(wrapped instanceof NodeApiError || wrapped instanceof NodeOperationError).toBe(true);
		expect(wrapped.context.itemIndex).toBe(3);
		expect(wrapped.message).toBe(error.message);
		// n8n's own errors are passed on as they are (a NodeApiError keeps its httpCode), not wrapped.
		if (error instanceof NodeApiError || error instanceof NodeOperationError) expect(wrapped).toBe(error);
	});

	test('no item (a trigger poll, a wait over all items): the error keeps what it had', () => {
		const own = new NodeOperationError(node, 'refused', { itemIndex: 1 });
		expect(nodeErrorOf(node, own, undefined).context.itemIndex).toBe(1);
		expect(nodeErrorOf(node, new Error('x'), undefined).context.itemIndex).toBeUndefined();
	});

	test("n8n's own cancellation becomes the one Stop error of the item", () => {
		const wrapped = nodeErrorOf(node, new ManualExecutionCancelledError('exec-1'), 2);
		expect(isStop(wrapped)).toBe(true);
		expect(wrapped).toMatchObject({ message: 'The execution was stopped', context: { itemIndex: 2, stopped: true } });
		expect(wrapped.description).toBe('The work of this node was cancelled because the workflow was stopped.');
	});

	test('what is no error, or has no context, is no Stop', () => {
		expect(isStop(undefined)).toBe(false);
		expect(isStop(null)).toBe(false);
		expect(isStop({})).toBe(false);
		expect(isStop(new Error('x'))).toBe(false);
		expect(isStop({ context: { stopped: 'yes' } })).toBe(false);
		expect(isStop({ context: { stopped: true } })).toBe(true);
	});
});

describe('stopError: one Stop error', () => {
	test('says what was cancelled, names the item, and its name tells n8n the run was cancelled', () => {
		const error = stopError(node, 'The download of https://files.example/a.png', { itemIndex: 4, more: 'Fetch it again with Task → Download Result.' });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('The execution was stopped');
		expect(error.description).toBe('The download of https://files.example/a.png was cancelled because the workflow was stopped.\nFetch it again with Task → Download Result.');
		expect(error.context).toMatchObject({ itemIndex: 4, stopped: true });
		// n8n-core marks a run canceled when its error's name says Cancelled (WorkflowExecute.processSuccessExecution).
		expect(error.name).toMatch(/Cancelled/);
		expect(isStop(error)).toBe(true);
		expect(isStop(new NodeOperationError(node, 'The execution was stopped'))).toBe(false);
	});
});
