'use strict';
// test/seed.js: the one source of chance in the tests. The same seed and name give the same draws,
// another seed or name others, and a seed that is not a whole number is refused by its name.
const { SEED_DEFAULT, testSeed, seededRandom } = require('./seed');

test('the seed: TEST_SEED, else the default; anything but a whole number refused', () => {
	expect(testSeed({})).toBe(SEED_DEFAULT);
	expect(testSeed({ TEST_SEED: ' ' })).toBe(SEED_DEFAULT);
	expect(testSeed({ TEST_SEED: '42' })).toBe(42);
	for (const bad of ['-1', '1.5', 'abc', '1e400']) expect(() => testSeed({ TEST_SEED: bad })).toThrow(/^TEST_SEED must be a whole number/);
});

test('a stream replays from its seed and name; another seed or name draws otherwise', () => {
	const draws = (name, seed) => {
		const stream = seededRandom(name, seed);
		return Array.from({ length: 8 }, () => stream.next());
	};
	expect(draws('ids', 7)).toEqual(draws('ids', 7));
	expect(draws('ids', 7)).not.toEqual(draws('ids', 8));
	expect(draws('ids', 7)).not.toEqual(draws('files', 7));
	for (const value of draws('ids', 7)) expect(Number.isInteger(value) && value >= 0 && value < 2 ** 32).toBe(true);
});

test('bytes, floats and ids in range and of their shape', () => {
	const stream = seededRandom('shapes', 1);
	expect(stream.bytes(16)).toHaveLength(16);
	for (let i = 0; i < 100; i++) {
		const f = stream.float();
		expect(f >= 0 && f < 1).toBe(true);
	}
	expect(stream.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
	// 256 draws of a byte reach most values: a stream stuck on a few would fail this.
	expect(new Set(stream.bytes(256)).size).toBeGreaterThan(120);
});
