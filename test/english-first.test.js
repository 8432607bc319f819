'use strict';
// English first (issue 58): every message the node shows leads in English; a relay's own words in
// another language follow, quoted as data (transport/relayWords.ts). Real relays answer in Chinese
// (new-api's i18n, docs/gateway-contract.md §10.10): each text below, at every status a relay gives,
// through the one error table, and a failed task's Chinese reason through a real wait.
const errors = require('../dist/nodes/UnifiedAiGateway/transport/errors.js');
const { relayWords } = require('../dist/nodes/UnifiedAiGateway/transport/relayWords.js');
const { runNode } = require('./harness');
const { useSimulator, createTask } = require('./support');

const TEXTS = [
	'无效的令牌',
	'该令牌额度已用尽',
	'用户额度不足, 剩余额度: ＄0.000000',
	'当前分组 default 下对于模型 sora-2 无可用渠道',
	'channel_circuit_open: 渠道熔断，30秒后恢复',
	'预扣费额度失败',
	'上游负载已饱和，请稍后再试',
	'请求参数错误: size',
	'Квота исчерпана',
];
const STATUSES = [400, 401, 403, 404, 413, 429, 500, 502, 503, 504];
const OTHER_SCRIPT = /(?!\p{Script=Latin})\p{L}/u;

/** The text with every quoted stretch taken out: what is left must be English. */
const unquoted = (text) => text.replace(/"(?:[^"\\]|\\.)*"/g, '""');

test('relayWords quotes a text in another language and leaves English as it is', () => {
	expect(relayWords('无可用渠道')).toBe('"无可用渠道"');
	expect(relayWords('Квота')).toBe('"Квота"');
	expect(relayWords('no available channel, ünïcödé 🎉')).toBe('no available channel, ünïcödé 🎉');
});

describe.each(STATUSES)('HTTP %i', (status) => {
	test.each(TEXTS)('%s: the message leads in English, the relay\'s words only quoted', (message) => {
		for (const billed of [true, false]) {
			const body = { error: { message, type: 'new_api_error', code: '' } };
			const explained = errors.explainGatewayError({ action: 'submitting the image job', status, body, billed });
			expect(explained.message).toMatch(/^[A-Z]/);
			expect([explained.message, unquoted(explained.message)].map((m) => OTHER_SCRIPT.test(m))).toEqual([OTHER_SCRIPT.test(explained.message), false]);
			expect(OTHER_SCRIPT.test(unquoted(explained.description))).toBe(false);
		}
	});
});

describe('a task the relay reports failed in Chinese', () => {
	const ctx = useSimulator({ scenario: { durationMs: 200 } });
	// Each answer shape an image task is read in (items[] of §4.5 too, whose reason is on its item).
	test.each(['items', 'upload', 'full'])('%s: the item says in English that it failed, then the relay\'s reason, quoted', async (imageShape) => {
		ctx.sim.scenario('*', { durationMs: 200, outcome: 'fail', imageShape, failMessage: '内容审核未通过：包含敏感信息' });
		const taskId = await createTask(ctx.sim);
		const result = await runNode({
			parameters: { resource: 'task', operation: 'waitForCompletion', taskId, queryRoute: 'image', waiting: { pollIntervalSeconds: 0.1 } },
			credentials: ctx.creds,
			continueOnFail: true,
		});
		const [item] = result.items;
		expect(item.json.error).toMatch(/^Task task_\w+ failed: "内容审核未通过：包含敏感信息"$/);
	});
});
