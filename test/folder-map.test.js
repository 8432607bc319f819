'use strict';
// test/README.md's "Source folder → tests" table against the code (test/folder-map.js): every
// source folder has a row, and every jest file a row names really reaches that folder.
const fs = require('node:fs');
const path = require('node:path');
const { problems, testsFor } = require('./folder-map');

test("test/README.md's source folder → tests map holds", () => {
	expect(problems()).toEqual([]);
});

test('the check sees a wrong row, a missing row and a file that is gone', () => {
	const readme = fs.readFileSync(path.join(__dirname, 'README.md'), 'utf8');
	const wrong = readme
		.replace('| `nodes/UnifiedAiGateway/actions/file` | `file.test.js` |', '| `nodes/UnifiedAiGateway/actions/file` | `text/streaming.test.js` |')
		.replace(/\n\| `credentials` \|[^\n]*/, '')
		.replace('`trigger-overlap.test.js`', '`trigger-gone.test.js`');
	expect(problems(wrong)).toEqual([
		'nodes/UnifiedAiGateway/actions/file: test/text/streaming.test.js does not reach it',
		'nodes/UnifiedAiGatewayTrigger: test/trigger-gone.test.js does not exist',
		'no row for credentials',
	]);
});

test('a source file maps to the jest files that run it: the trigger\'s claims to the trigger tests, not the text suite', () => {
	const tests = testsFor(['nodes/UnifiedAiGatewayTrigger/pollClaims.ts']);
	expect(tests).toEqual(expect.arrayContaining(['test/trigger.test.js', 'test/trigger-overlap.test.js']));
	expect(tests).not.toContain('test/text/streaming.test.js');
	expect(testsFor(['nodes/UnifiedAiGateway/actions/file'])).toContain('test/file.test.js');
	expect(testsFor(['nodes/UnifiedAiGateway/actions/file'])).not.toContain('test/video/results.test.js');
	expect(testsFor(['nodes/UnifiedAiGateway/engine/waiting/pollSchedule.ts'])).toEqual(expect.arrayContaining(['test/poll-schedule.test.js', 'test/waitPolicy.test.js']));
});

test('the quick loop is chosen by time: jest\'s record first, then the recorded one, a new file counts as quick', () => {
	const { classify, QUICK_SECONDS } = require('./quick');
	const files = ['test/a.test.js', 'test/b.test.js', 'test/c.test.js', 'test/d.test.js', 'test/e.test.js'];
	const mine = { 'test/a.test.js': QUICK_SECONDS + 1, 'test/b.test.js': 1, 'test/e.test.js': QUICK_SECONDS };
	const recorded = { 'test/a.test.js': 1, 'test/c.test.js': QUICK_SECONDS + 30 };
	const { quick, slow } = classify(files, mine, recorded);
	expect(quick.map((f) => [f.file, f.source])).toEqual([
		['test/d.test.js', 'new'],
		['test/b.test.js', 'jest'],
		['test/e.test.js', 'jest'],
	]);
	expect(slow.map((f) => [f.file, f.source])).toEqual([
		['test/a.test.js', 'jest'],
		['test/c.test.js', 'recorded'],
	]);
});
