'use strict';
// The engine's own shared parts (engine/concurrency.ts): the limits every run of many items keeps.
// submits.test.js and video/results.test.js ("finished results fetched at once") see them through
// n8n; this file holds their edges, without a clock: each piece ends when the test says so.
const { limiter, mapLimited } = require('../dist/nodes/UnifiedAiGateway/engine/concurrency.js');

/** A piece of work the test ends by hand: `started` says whether fn was called. */
function piece(log, name) {
	let end;
	const done = new Promise((resolve) => (end = resolve));
	const p = { started: false, end: () => end(name) };
	p.fn = () => {
		p.started = true;
		log.push(name);
		return done;
	};
	return p;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('limiter', () => {
	test('never more than the limit at once; the waiting ones start in call order', async () => {
		const run = limiter(2);
		const log = [];
		const pieces = ['a', 'b', 'c', 'd'].map((name) => piece(log, name));
		const results = pieces.map((p) => run(p.fn));
		await settle();
		expect(log).toEqual(['a', 'b']);
		pieces[1].end();
		await settle();
		expect(log).toEqual(['a', 'b', 'c']);
		// A newcomer while others wait goes behind them.
		const late = piece(log, 'e');
		const lateResult = run(late.fn);
		pieces[0].end();
		await settle();
		expect(log).toEqual(['a', 'b', 'c', 'd']);
		pieces[2].end();
		pieces[3].end();
		await settle();
		expect(log).toEqual(['a', 'b', 'c', 'd', 'e']);
		late.end();
		expect(await Promise.all([...results, lateResult])).toEqual(['a', 'b', 'c', 'd', 'e']);
	});

	test('a limit below 1 still lets one run', async () => {
		const run = limiter(0);
		const log = [];
		const [a, b] = ['a', 'b'].map((name) => piece(log, name));
		run(a.fn);
		run(b.fn);
		await settle();
		expect(log).toEqual(['a']);
		a.end();
		await settle();
		expect(log).toEqual(['a', 'b']);
		b.end();
	});

	test('a limit asked each time: when it grows, the next piece to end lets in as many as it now allows', async () => {
		let limit = 1;
		const run = limiter(() => limit);
		const log = [];
		const pieces = ['a', 'b', 'c', 'd', 'e'].map((name) => piece(log, name));
		pieces.forEach((p) => run(p.fn));
		await settle();
		expect(log).toEqual(['a']);
		limit = 3;
		pieces[0].end();
		await settle();
		expect(log).toEqual(['a', 'b', 'c', 'd']);
		limit = 1;
		pieces[1].end();
		pieces[2].end();
		await settle();
		// Two of three ended with the limit back at 1: one still runs, so e waits for it.
		expect(log).toEqual(['a', 'b', 'c', 'd']);
		pieces[3].end();
		await settle();
		expect(log).toEqual(['a', 'b', 'c', 'd', 'e']);
		pieces[4].end();
	});

	test('a piece that throws frees its place and passes its error on', async () => {
		const run = limiter(1);
		await expect(run(async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
		await expect(run(async () => 'next')).resolves.toBe('next');
	});
});

describe('mapLimited', () => {
	test('results in input order, at most the limit at once', async () => {
		let running = 0;
		let most = 0;
		const results = await mapLimited([30, 10, 20, 0], 2, async (ms, i) => {
			running++;
			most = Math.max(most, running);
			await new Promise((resolve) => setTimeout(resolve, ms));
			running--;
			return `${i}:${ms}`;
		});
		expect(results).toEqual(['0:30', '1:10', '2:20', '3:0']);
		expect(most).toBe(2);
	});
});
