'use strict';
/*
 * The gateway simulator for the benchmark, with one change: every result picture of a size is
 * drawn once. Drawing a 1024x1024 PNG costs the simulator ~35 ms of CPU in this process (19 s for
 * 500 images), on a 2-core machine that n8n shares: a cost of the stand-in, not of the gateway or
 * of n8n. gpt-image-2-async accepts no smaller size (the registry's smallest is 1024x1024), so the
 * pictures are reused instead: n8n still downloads and stores a full 1024x1024 PNG per item.
 * BENCH_RENDER=1 draws every picture, as the simulator normally does.
 */

const picture = require('../../test/simulator/picture');

if (process.env.BENCH_RENDER !== '1') {
	const draw = picture.picturePng;
	const drawn = new Map();
	// Must run before the simulator's pictures.js takes its reference to picturePng.
	picture.picturePng = (options) => {
		const key = `${options.width}x${options.height}`;
		if (!drawn.has(key)) drawn.set(key, draw({ ...options, title: 'bench', seed: 'bench' }));
		return drawn.get(key);
	};
}

const { startSimulator } = require('../../test/simulator');

module.exports = { startSimulator, picturesDrawnOnce: process.env.BENCH_RENDER !== '1' };
