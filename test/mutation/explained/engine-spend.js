'use strict';
// engine/spend/: why each survivor is left (index.js says how a line reads).
module.exports = [
	['engine/spend/tally.ts', "e.amountUsd === null → e.amountUsd !== null", "the group key's last part then swaps 'priced' and the unpriced reason: a priced and an unpriced item of one model and unit still differ (a word against a reason or nothing), and unpriced items of one model and detail get one reason in a run (one price list, one set of settings): equivalent"],
	['engine/spend/tally.ts', "StringLiteral 'priced' → \"\"", "the group key's '' for a priced item still differs from an unpriced item's reason (never empty) or nothing: equivalent"],
	['engine/spend/summary.ts', "typeof direct.set === 'function' → true", 'a context whose customData has no set does not exist: n8n 1.123 has no customData on the context, 2.41 gives one with set (or throws, caught alike): equivalent on every path n8n takes'],
	['engine/spend/summary.ts', '$execution?.customData → ctx.getWorkflowDataProxy(0).$execution.customData', "n8n's workflow data proxy has $execution on both lines (1.123, 2.41): equivalent on every path n8n takes"],
	['engine/spend/summary.ts', "typeof viaProxy.set === 'function' → true", "the proxy's $execution.customData has set on both lines (1.123, 2.41), and without it the value is undefined either way: equivalent on every path n8n takes"],
	['engine/spend/summary.ts', 'ctx.logger?.warn → ctx.logger.warn', 'every context n8n hands a node has a logger, on both lines (1.123, 2.41): equivalent on every path n8n takes'],
	['engine/spend/summary.ts', 'Regex /^_+|_+$/g →', 'the replace before it already folds every run of other characters into one _, so a name never starts or ends with two: equivalent'],
	['engine/spend/charged.ts', 'percent > 0 → percent >= 0', 'difference returns undefined for a 0 % difference before the sign is chosen: equivalent'],
	['engine/spend/charged.ts', 'compared.items === 0 → false', 'chargeHint: with no item compared both sums are 0, and the next test (a charge on an estimate of 0) answers undefined as the shortcut does: equivalent'],
	['engine/spend/charged.ts', 'estimatedUsd > 0 →', "chargeHint: an estimate is never below 0, and at 0 the ratio is Infinity for a charge above 0 and NaN for none, giving the same answer as chargedUsd > 0: equivalent"],
	['engine/spend/guard.ts', '!settings || !planned → !settings && !planned', 'afterRun: settings is set just before planned with nothing between them that returns (a throwing estimate fails the run before afterRun), so the two are unset together: equivalent on every path n8n takes'],
	['engine/spend/guard.ts', 'output.length > 0 →', "afterRun writes the summary only after beforeSubmit planned at least one item, and the engine leaves at least one output item for every input item (its result, its pending task or its error): the output is never empty there, equivalent"],
];
