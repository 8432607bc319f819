'use strict';
/*
 * Why each mutant that survives `npm run test:mutation` is left, one line each, in the files of
 * this folder (one per layer or part of one): `[source file under nodes/UnifiedAiGateway/, a part
 * of the mutation as the report prints it, why, the built file's line when the same mutation
 * elsewhere in the file has another reason]`. `-- --report` prints each survivor with its line (or
 * NOT EXPLAINED), the counts, and the lines that match no survivor any more. A mutant a test can
 * kill gets the test, not a line.
 */
const fs = require('node:fs');

module.exports = fs
	.readdirSync(__dirname)
	.filter((file) => file.endsWith('.js') && file !== 'index.js')
	.sort()
	.flatMap((file) => require(`./${file}`));
