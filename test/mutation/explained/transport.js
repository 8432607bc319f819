'use strict';
// transport/: why each survivor is left (index.js says how a line reads).
module.exports = [
	// urls.ts
	['transport/urls.ts', 'Regex /:$/ → /:/', "a URL's protocol ends in one colon, which both remove: equivalent"],
	['transport/urls.ts', 'BlockStatement {… → {}', 'originOf returns undefined from the emptied catch all the same: equivalent', 38],
	['transport/urls.ts', 'Regex /^\\[|\\]$/g', "isLoopbackHost is given a URL's hostname only (checkBaseUrl, engine/waiting/interval.ts), where a bracket can only open and close an IPv6 address: equivalent"],
	['transport/urls.ts', "url.search !== '' → false", "a URL whose query is not empty was written with a '?', which the value.includes('?') beside it refuses the same: equivalent"],
	['transport/urls.ts', "url.hash !== '' → false", "a URL whose fragment is not empty was written with a '#', which the value.includes('#') beside it refuses the same: equivalent"],
	// send.ts
	['transport/send.ts', `StringLiteral '' → "Stryker was here!"`, 'the key origins hold only origins keyOrigins read from a URL, so an unreadable URL finds neither the empty text nor another: equivalent', 25],
	['transport/send.ts', `StringLiteral '' → "Stryker was here!"`, 'the key origins hold only origins keyOrigins read from a URL, so an unreadable Location finds neither the empty text nor another: equivalent', 43],
	['transport/send.ts', `StringLiteral '' → "Stryker was here!"`, "a blank Location then comes back as '', which the `!location` check takes for none as it does undefined; only a Location of exactly the mutant's text would differ: equivalent for a gateway", 69],
	['transport/send.ts', "ConditionalExpression value.trim() !== '' → true", "a blank Location then comes back as '', which the `!location` check takes for none as it does undefined: equivalent"],
	['transport/send.ts', 'MethodExpression value.trim() → value', "the blank check made on the untrimmed text: the trimmed text is returned either way ('' for a blank Location), which `!location` takes for none: equivalent (the line's other trim, of the text returned, is killed by transport-hops' no-break space row)"],
	// retry.ts
	['transport/retry.ts', 'code !== undefined → true', 'the set of retryable codes holds no undefined, so has(undefined) answers false as the check did: equivalent'],
	['transport/retry.ts', 'value ===', "parseRetryAfter's shortcut for undefined, null and '': without it they read as 'undefined', 'null' and '', which fail the seconds pattern and Date.parse and give undefined all the same: equivalent"],
	['transport/retry.ts', `StringLiteral '' → "Stryker was here!"`, "parseRetryAfter's shortcut then lets '' through, which fails the seconds pattern and Date.parse and gives undefined all the same: equivalent"],
	// created.ts
	['transport/created.ts', `StringLiteral '' → "Stryker was here!"`, 'an absent network code then looks up another text, which the set of codes not sent holds no more than the empty one (certificateProblem reads the code itself): equivalent'],
	// nodeError.ts
	['transport/nodeError.ts', 'itemIndex === undefined → false', "{ itemIndex: undefined } instead of {}: n8n's NodeOperationError sets context.itemIndex = options.itemIndex either way (n8n-workflow 1.x and 2.x): equivalent"],
	// sleep.ts
	['transport/sleep.ts', 'ObjectLiteral { once: true } → {}', "an AbortSignal fires 'abort' once at most, and the finally removes the listener either way: equivalent"],
	['transport/sleep.ts', 'BooleanLiteral true → false', "`once: false`: an AbortSignal fires 'abort' once at most, and the finally removes the listener either way: equivalent"],
	['transport/sleep.ts', 'ConditionalExpression onAbort → true', "the promise's executor runs at once and always sets onAbort before the try: equivalent"],
	['transport/sleep.ts', 'cancelSignalOf)(ctx)?.aborted → true', 'unlessStopped then waits 0 ms on a running execution too, which ends at once (no slice; without a signal one zero-ms timer) and goes on as before: equivalent'],
	// pacer.ts
	['transport/pacer.ts', 'ArrayDeclaration [] → ["Stryker was here"]', "a text first in the list compares false with every time: limited's filter never counts it, but it stops the trimming, so only the list's length (memory) differs"],
	['transport/pacer.ts', 'Number.isFinite(this.rate) → true', 'while the rate is Infinity, 1000 / Infinity and 1 / Infinity are 0: the next slot stays now and the rate Infinity: equivalent'],
	['transport/pacer.ts', 'this.recent.length > 0 && this.recent[0] < now - WINDOW_MS → false', "the list is never trimmed: limited counts the last second by its own filter, so only the list's length (memory) differs"],
	['transport/pacer.ts', 'this.recent.length > 0 → this.recent.length <= 0', "the list is never trimmed: limited counts the last second by its own filter, so only the list's length (memory) differs"],
	['transport/pacer.ts', 'this.recent.length > 0 → true', 'the list holds the time just pushed, which is never older than the window, so it is never empty where the loop asks: equivalent'],
	['transport/pacer.ts', 'this.recent.length > 0 → this.recent.length >= 0', 'the list holds the time just pushed, which is never older than the window, so it is never empty where the loop asks: equivalent'],
	// addresses.ts
	['transport/addresses.ts', 'Regex /%.*$/ → /%.*/', 'a zone id runs to the end of the text either way (a host name holds no line break for `.` to stop at): equivalent'],
	['transport/addresses.ts', "!rest.includes(':') → false", 'a text with no colon then goes on to the parse, where it is one group, not eight, and no `::`: undefined all the same, equivalent'],
	['transport/addresses.ts', `StringLiteral ':' → ""`, 'every text includes the empty one, so a text with no colon goes on to the parse, where it is one group, not eight: undefined all the same, equivalent'],
	['transport/addresses.ts', 'Regex /^(.*:)(\\d{1,3}(?:\\.\\d{1,3}){3})$/ → /(.*:)', 'the leading `.*` already lets the match start at the first character, where a leftmost match starts: the same match, equivalent'],
	['transport/addresses.ts', 'halves.length === 2 → true', 'without `::` all eight groups are given (checked the line before), so the zeros to add are new Array(0): none either way, equivalent'],
	['transport/addresses.ts', 'Regex /^\\[|\\]$/g', 'the address shown was parsed already by ipv6(), whose same pattern refuses a bracket anywhere but at the ends: only the end ones are there to remove, equivalent', 90],
	['transport/addresses.ts', 'Regex /^\\[|\\]$/g', 'the address shown was parsed already by ipv6(), whose same pattern refuses a bracket anywhere but at the ends: only the end ones are there to remove, equivalent', 91],
	['transport/addresses.ts', 'ArrayDeclaration [] → ["Stryker was here"]', 'no resolver (n8n 1.x), a failed lookup or a name it cannot take then gives that text as an address, which is of no refused kind: nothing found, as with none, equivalent'],
	['transport/addresses.ts', "found.kind === 'metadata' → true", '100.100.100.200 is always of the metadata kind (addressKind), so asking the kind adds nothing: equivalent'],
	['transport/addresses.ts', '!filter → false', 'without a filter the next line calls validateConnectionHost on undefined, whose TypeError the catch turns into the same false: equivalent'],
	['transport/addresses.ts', 'BlockStatement {… → {}', 'the emptied catch returns undefined instead of false, which checkAddress reads as not allowed all the same (it tests the answer, not its type): equivalent', 183],
	['transport/addresses.ts', 'kind → true', 'an undefined kind added to the gateway kinds is never asked for: checkAddress asks only the kind of an address it found: equivalent'],
	// request.ts
	['transport/request.ts', "typeof FormData !== 'undefined' → true", 'FormData is a global on every Node n8n runs on (18 and later), so the guard is always true: equivalent'],
	['transport/request.ts', `StringLiteral 'undefined' → ""`, "FormData is a global on every Node n8n runs on (18 and later), so its type is never '' nor 'undefined': the guard is true either way, equivalent"],
	['transport/request.ts', '!facts → true', "credentialFacts' cache: without it the same facts are worked out again from the same credentials on each request: only the work differs, equivalent"],
	['transport/request.ts', 'response.statusCode >= 200 → true', "n8n's HTTP client returns the final answer, never a 1xx (informational answers are not responses of their own), so every status is at least 200: equivalent"],
	['transport/request.ts', 'status >= 200 → true', "n8n's HTTP client returns the final answer, never a 1xx (informational answers are not responses of their own), so every status is at least 200: equivalent"],
	['transport/request.ts', 'limitedAttempt < retry_1.RATE_LIMIT.maxAttempts', "the cap of 40 counts only 429s without a Retry-After, whose backoff at its shortest (jitter 0, behind the pacer) fits 28 sends in the two-minute budget (transport-request.test.js): the budget ends them first, equivalent"],
	['transport/request.ts', 'delay <= retry_1.RETRY.maxRetryAfterMs → true', 'for a GET, a wait past the minute (maxRetryAfterMs) also fails the next check, the same minute from the first attempt (budgetMs): equivalent'],
	['transport/request.ts', `StringLiteral '' → "Stryker was here!"`, "answerError's request is read by buildError only for its item (method and path are never read): equivalent", 242],
	['transport/request.ts', `StringLiteral 'GET' → ""`, "answerError's request is read by buildError only for its item (method and path are never read): equivalent"],
	['transport/request.ts', 'read?.received', "refusedAnswer.received is read by no rule of the error table (only limit and depth are named): equivalent"],
	['transport/request.ts', 'limit + 1 → limit - 1', "unreachable fallback: a 2xx answer that is not streamed was always read (read is set before answerOf), and refusedAnswer.received is read by no rule: equivalent"],
];
