// English first: what the node says leads in English; a relay's words in another language follow,
// quoted as data (used by the error words, the wait's failures and the task operations).

/**
 * Letters of a script other than Latin (Chinese, Japanese, Cyrillic, Arabic, …): a relay's words in
 * a language other than English. Punctuation, symbols and emoji are not letters of a language.
 */
const OTHER_SCRIPT = /(?!\p{Script=Latin})\p{L}/u;

/**
 * A relay's own words as a message shows them, after its English lead: quoted, as data, when they
 * are in another language ("English first", docs/gateway-contract.md §10.10); English as it is.
 */
export function relayWords(text: string): string {
	return OTHER_SCRIPT.test(text) ? JSON.stringify(text) : text;
}
