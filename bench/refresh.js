'use strict';
/*
 * How the benches' simulator refreshes task records: live (the default), or behind new-api's rounds
 * (test/simulator/relay.js: a round 15 s after the last ended, 1 s per task inside a channel, the
 * channels side by side). `--relay` or BENCH_REFRESH=relay; BENCH_RELAY_CHANNELS=N spreads each
 * model's tasks over N channels (the n-th task on channel n mod N), as a relay with N keys for a
 * model refreshes them side by side (default 1, new-api's one channel per model).
 */

function benchRefresh(args = [], env = process.env) {
	const relay = args.includes('--relay') || env.BENCH_REFRESH === 'relay';
	if (!relay) {
		const given = env.BENCH_REFRESH;
		if (given && given !== 'live') throw new Error(`BENCH_REFRESH takes live or relay, not ${given}`);
		return undefined;
	}
	const channels = Number(env.BENCH_RELAY_CHANNELS ?? 1);
	if (!Number.isSafeInteger(channels) || channels < 1) {
		throw new Error(`BENCH_RELAY_CHANNELS takes a whole number >= 1, not ${env.BENCH_RELAY_CHANNELS}`);
	}
	return { pace: 'relay', channels };
}

/** How the run's records were refreshed, for its header. */
const describeRefresh = (refresh) =>
	refresh
		? `task records behind new-api's rounds (15 s after the last, 1 s per task per channel, ${refresh.channels} ` +
			'channel(s) per model)'
		: 'task records read live';

module.exports = { benchRefresh, describeRefresh };
