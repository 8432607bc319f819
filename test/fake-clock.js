'use strict';
// Jest's fake clock moved on until a promise settles, for the tests that drive a wait of the node
// (the transport's retries, the polling loop) without real time passing. One helper, so a test
// that hangs fails the same way everywhere.

/**
 * Advances jest's fake clock by `stepMs` at a time until `promise` settles; its outcome as
 * `{ value }` or `{ error }`. With `limitMs`, throws once that much of the clock has passed unsettled
 * (a wait that never ends fails its test instead of running until the test runner's own timeout).
 */
async function settledOnClock(promise, { stepMs, limitMs = Infinity }) {
	let outcome;
	promise.then(
		(value) => (outcome = { value }),
		(error) => (outcome = { error }),
	);
	const until = Date.now() + limitMs;
	while (outcome === undefined) {
		if (Date.now() > until) throw new Error(`not settled within ${limitMs / 1_000} s of jest's clock`);
		await jest.advanceTimersByTimeAsync(stepMs);
	}
	return outcome;
}

module.exports = { settledOnClock };
