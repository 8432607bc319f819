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
];
