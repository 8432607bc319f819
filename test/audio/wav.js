'use strict';
// A recording for the speech-to-text tests: `seconds` of 8 kHz 16-bit mono silence in a WAV, as the
// one recorded against the real relay (0.5 s: 8,044 bytes), built by the simulator's own WAV writer.
const { wav } = require('../simulator/routes/audio');

const silentWav = (seconds = 0.5) => wav(8000, seconds);

module.exports = { silentWav };
