'use strict';
// In real n8n: five ideas make five music submits (one each, POST /suno/submit/music as new-api
// takes it), waited for together by the one poll loop on GET /suno/fetch/{id}, landing as ten
// songs (two per submit), each an MP3 in n8n's binary store judged by its bytes, with its share of
// the task's settled charge and the price list's estimate.
const assert = require('node:assert/strict');
const { nodeItems, binaryBuffer } = require('../run-e2e');

const IDEAS = ['a spring sale', 'a rainy Monday', 'a robot barista', 'a summer road trip', 'a quiet library'];

module.exports = async function (run, sim, result) {
	const submits = sim.find('POST', '/suno/submit/music');
	assert.deepEqual(
		submits.map((s) => s.body),
		IDEAS.map((idea) => ({ gpt_description_prompt: `A short jingle about ${idea}`, mv: 'chirp-auk', make_instrumental: false })),
	);
	const songs = nodeItems(run, 'Songs');
	assert.equal(songs.length, 10, `songs: ${JSON.stringify(songs.map((s) => s.json))}`);
	assert.equal(new Set(songs.map((s) => s.json.taskId)).size, 5);
	for (const song of songs) {
		assert.equal(song.json.state, 'succeeded', JSON.stringify(song.json));
		assert.equal(song.json.queryRoute, 'suno');
		assert.equal(song.binary?.data?.mimeType, 'audio/mpeg');
		const bytes = binaryBuffer(result, song.binary.data);
		assert.equal(bytes.subarray(0, 2).toString('hex'), 'fffb', 'an MP3 frame');
		assert.deepEqual(
			{ amount: song.json.charge.amount, taskAmount: song.json.charge.taskAmount, currency: song.json.charge.currency },
			{ amount: 0.05, taskAmount: 0.1, currency: 'USD' },
		);
		assert.equal(song.json.estimatedCost.amount, 0.1, JSON.stringify(song.json.estimatedCost));
		assert.equal(song.json.estimatedCost.source, "the gateway's price list");
	}
	const charged = songs.reduce((sum, s) => sum + s.json.charge.amount, 0);
	assert.ok(Math.abs(charged - 0.5) < 1e-9, `charged ${charged}`);
	assert.ok(sim.find('GET', /^\/suno\/fetch\//).length >= 5, 'every task was read');
	assert.ok(!JSON.stringify(run).includes('sk-sim-good'), 'the API key appears in the run data');
};

module.exports.before = (sim) => {
	// The plain relay serves /api/pricing (suno_music 0.1 USD) and carries the charge on the task; the
	// workflow uses the plain relay's credential (run-e2e.js RELAY_CRED), whose reads are its own.
	sim.setProfile('plainNewApi');
};
