'use strict';
// transport/ errors, errorRules, secrets, responses: why each survivor is left (index.js says how a line reads).
module.exports = [
	['transport/errors.ts', "typeof value === 'object'", 'asObject letting a list, text, number or null through: no name read from its result (error, data, message, msg, fail_reason, code, type) exists on those, and null stops at `!root` or `?.`: equivalent', 11],
	['transport/errors.ts', "typeof root.error === 'string' → true", 'an error that is not text in that slot is skipped by the find, which takes only text, as undefined is: equivalent'],
	['transport/errors.ts', `StringLiteral '' → "Stryker was here!"`, 'with no status, every rule the table reaches first (blocked, answer refused, another task, certificate, network) writes its own description, so the empty status line is never joined; a status is an HTTP code, never 0: equivalent', 82],
	['transport/secrets.ts', 'Regex /^[\\x21-\\x7E]$/', 'the pattern tests one code point of [...key] at a time (one character, or a surrogate pair whose halves are both outside the range), so either anchor alone gives the same answer: equivalent'],
	['transport/secrets.ts', 'value === before → false', 'the rounds after nothing changed change nothing (each step of a round gives the same value again): the break only saves them, equivalent'],
	['transport/secrets.ts', '[...forms].filter((f) => f.trim().length >= 4) → [...forms]', 'every form holds the sent key or the unwrapped field, at least 4 characters with no whitespace at its ends, so no form is shorter and the filter keeps all: equivalent'],
	['transport/secrets.ts', 'f.trim().length >= 4 → true', 'every form holds the sent key or the unwrapped field, at least 4 characters with no whitespace at its ends, so no form is shorter and the filter keeps all: equivalent'],
	['transport/secrets.ts', 'f.trim() → f', 'every form holds the sent key or the unwrapped field, at least 4 characters with no whitespace at its ends, so no form is shorter and the filter keeps all: equivalent'],
	['transport/responses.ts', 'received < limit', 'a chunk is kept whole or cut to the limit only while the answer is within it, and past it nothing kept is used: only how much is held until the reading stops, equivalent'],
	['transport/responses.ts', 'buffer.subarray(0, limit - received)', 'while the answer is within the limit each chunk is within it too, so the cut takes all of it, and past the limit nothing kept is used: equivalent'],
	['transport/errorRules.ts', "'a body that is not JSON'", 'unreachable: a text answer that is neither empty nor HTML always has words (gatewayText keeps its first 500 characters), so `raw` is never empty there: equivalent'],
	['transport/errorRules.ts', "raw === '' → false", 'unreachable: a text answer that is neither empty nor HTML always has words (gatewayText keeps its first 500 characters), so `raw` is never empty there: equivalent'],
	['transport/errorRules.ts', 'f.status !== undefined → true', "facts without a status never reach no-explanation: the network rules (unreachable matches every one) come first: equivalent"],
];
