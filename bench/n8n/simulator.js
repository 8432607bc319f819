'use strict';
/*
 * The gateway simulator for the benchmark, with two changes made before it loads:
 *
 * - Every result picture of a size is drawn once. Drawing a 1024x1024 PNG costs the simulator
 *   ~35 ms of CPU in this process (19 s for 500 images), on a 2-core machine that n8n shares: a
 *   cost of the stand-in, not of the gateway or of n8n. gpt-image-2-async accepts no smaller size
 *   (the registry's smallest is 1024x1024), so the pictures are reused instead: n8n still
 *   downloads and stores a full 1024x1024 PNG per item. BENCH_RENDER=1 draws every picture.
 * - Every task the gateway creates is also kept in `created` (its id, prompt, times, scenario):
 *   what the bench counts per task (reads, double submits, lost tasks) starts from the tasks the
 *   gateway really made, not from the requests a client sent.
 */

const picture = require('../../test/simulator/picture');
const tasks = require('../../test/simulator/tasks');

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

/** Tasks created since the last clear (the routes take createTask from the module when they load). */
const created = [];
const createTask = tasks.createTask;
tasks.createTask = (...args) => {
	const task = createTask(...args);
	created.push(task);
	return task;
};

const { startSimulator } = require('../../test/simulator');

module.exports = { startSimulator, created, picturesDrawnOnce: process.env.BENCH_RENDER !== '1' };
