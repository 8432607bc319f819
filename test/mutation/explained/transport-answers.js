'use strict';
// transport/ errors, errorRules, secrets, responses: why each survivor is left (index.js says how a line reads).
module.exports = [
	['transport/errors.ts', "typeof value === 'object'", 'asObject letting a list, text, number or null through: no name read from its result (error, data, message, msg, fail_reason, code, type) exists on those, and null stops at `!root` or `?.`: equivalent', 11],
	['transport/errors.ts', "typeof root.error === 'string' → true", 'an error that is not text in that slot is skipped by the find, which takes only text, as undefined is: equivalent'],
	['transport/errors.ts', `StringLiteral '' → "Stryker was here!"`, 'with no status, every rule the table reaches first (blocked, answer refused, another task, certificate, network) writes its own description, so the empty status line is never joined; a status is an HTTP code, never 0: equivalent', 82],
];
