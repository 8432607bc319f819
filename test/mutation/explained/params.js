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
];
