'use strict';
// params/: why each survivor is left (index.js says how a line reads).
module.exports = [
	['params/inputs.ts', 'text !== ', "checkNumber's text-to-number step: an empty text and a value that is neither number nor text are refused by the two checks after it before n is read, so reading them as NaN or Number('') changes nothing: equivalent", 41],
	['params/inputs.ts', `'' → "Stryker was here!"`, "checkNumber's text-to-number step: an empty text is refused by the check after it before n is read, so Number('') in place of NaN changes nothing: equivalent", 41],
	['params/inputs.ts', '[0xfeff, 0xfeff] → []', "the U+FEFF range of the invisible characters: showsNothing skips every \\s first, and JavaScript's \\s matches U+FEFF: equivalent"],
	['params/downloadOptions.ts', "'memory') < mb", "n8n's memory-mode limit (24 MB) is below both file kinds' defaults (image 50, video 2048 MB), so the memory note is added whatever this comparison says: equivalent until a kind with a default of 24 MB or less is added"],
	['params/downloadOptions.ts', 'lower.length === 0 → false', "every file kind has a lower limit in memory mode (24 MB, below 50 and 2048 MB), so the list of lower limits is never empty: equivalent until a kind with a default of 24 MB or less is added"],
	['params/downloadOptions.ts', '[] → ["Stryker was here"]', "the memory note's branch for a kind whose default is at most n8n's memory-mode limit (24 MB): no kind has one (image 50, video 2048 MB), so no input reaches it"],
	['params/downloadOptions.ts', '`${mb} MB` → ``', "the text for a kind without a lower limit in any mode: no kind has one (the memory-mode limit, 24 MB, is below image's 50 and video's 2048 MB), so no input reaches it"],
	// Files no report covers yet (registryRules, registryValues, registryProperties,
	// spendGuardOptions): mutants each checked by hand to survive params-registry-rules,
	// params-registry-fields and params-fields, and equivalent.
	['params/registryRules.ts', "typeof value === 'boolean' → false", "checkRuleValue's switch: a true or false that is not text reads as String(value), 'true' or 'false', which the next line turns into the same boolean: equivalent"],
	['params/registryRules.ts', 'rule.pattern → true', 'a rule without a pattern is checked against new RegExp(undefined), which is /(?:)/ and matches every text: equivalent'],
	['params/registryValues.ts', '!samePlace(place, own) → true', "refuseOtherModelsValue has returned already when the item's own variant is changed, so the own variant never passes isChanged and needs no exclusion: equivalent"],
	['params/registryValues.ts', 'route === undefined → false', 'a rule limited to routes, with no route given: includes(undefined) is false for a list of route names, so the rule is skipped all the same: equivalent'],
	['params/registryProperties.ts', 'factor !== 1 → true', 'valueMultipliers (registry/prices.ts) lists only multipliers other than 1, so a listed factor is never 1: equivalent'],
	['params/registryProperties.ts', "type === 'boolean' → false", 'the fallback default of a boolean rule: a rule is boolean only when its default is a boolean, so the fallback is never used: equivalent'],
	['params/registryProperties.ts', 'false → true', 'the fallback default of a boolean rule: a rule is boolean only when its default is a boolean, so the fallback is never used: equivalent'],
	['params/spendGuardOptions.ts', 'a.displayName.localeCompare(b.displayName)', "the Spend Guard's options are written in name order and Video Prices per Second, added last for video, sorts last: the sort changes no order (params-fields.test.js holds the order): equivalent"],
];
