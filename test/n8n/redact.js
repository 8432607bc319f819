'use strict';

/** The simulator's key: the one secret the test tooling handles. */
const SIM_API_KEY = 'sk-sim-good';

/** Replace every occurrence of the API key (and any Bearer token) in text. */
function redact(text) {
	return String(text || '')
		.split(SIM_API_KEY)
		.join('***')
		.replace(/(Bearer\s+)[A-Za-z0-9._~+\/=-]+/g, '$1***');
}

module.exports = { SIM_API_KEY, redact };
