'use strict';
/*
 * Chance in the tests comes from one seed, so that a failure can be replayed.
 *
 *   TEST_SEED=<whole number>   the seed (default SEED_DEFAULT, what CI runs with)
 *
 * Each user of chance takes a stream of its own by name (`seededRandom('simulator ids')`): its
 * draws do not move when another stream draws more or less, and a jest file, which loads its own
 * modules, starts each stream afresh. Under concurrency the order of draws may still follow the
 * order requests arrive in; what a test asserts must not hang on the values drawn (ids are
 * compared with each other, never with a value a draw usually gives). test/seed-reporter.js
 * prints the seed with every failing run; `node scripts/seed-sweep.js` runs the tests under many.
 */
const crypto = require('node:crypto');

const SEED_DEFAULT = 20261207;

/** The run's seed: TEST_SEED, or the default; anything but a whole number is refused by name. */
function testSeed(env = process.env) {
	const raw = env.TEST_SEED;
	if (raw === undefined || raw.trim() === '') return SEED_DEFAULT;
	const seed = Number(raw);
	if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`TEST_SEED must be a whole number of 0 or more, not ${JSON.stringify(raw)}`);
	return seed;
}

/**
 * A stream of 32-bit values (sfc32, four words of state from a hash of the seed and the name):
 * next() gives [0, 2^32), float() [0, 1), bytes(n) a Buffer of n.
 */
function seededRandom(name, seed = testSeed()) {
	const state = crypto.createHash('sha256').update(`${seed}\u0000${name}`).digest();
	let a = state.readUInt32LE(0);
	let b = state.readUInt32LE(4);
	let c = state.readUInt32LE(8);
	let d = state.readUInt32LE(12);
	const next = () => {
		const t = (((a + b) >>> 0) + d) >>> 0;
		d = (d + 1) >>> 0;
		a = b ^ (b >>> 9);
		b = (c + (c << 3)) >>> 0;
		c = ((c << 21) | (c >>> 11)) >>> 0;
		c = (c + t) >>> 0;
		return t;
	};
	for (let i = 0; i < 12; i++) next(); // the first draws of sfc32 still show the state's bits
	return {
		next,
		float: () => next() / 2 ** 32,
		bytes(n) {
			const out = Buffer.alloc(n);
			for (let i = 0; i < n; i++) out[i] = next() & 0xff;
			return out;
		},
		/** An RFC 4122 version-4 shaped id from the stream (what randomUUID gives, but replayable). */
		uuid() {
			const b = this.bytes(16);
			b[6] = (b[6] & 0x0f) | 0x40;
			b[8] = (b[8] & 0x3f) | 0x80;
			const h = b.toString('hex');
			return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
		},
	};
}

module.exports = { SEED_DEFAULT, testSeed, seededRandom };
