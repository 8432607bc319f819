/*
 * Bounds the spec does not give, taken from what gateways of this kind accept (issue 16).
 */

/**
 * Prompt length. Spec 4.4-4.8 give none; OpenAI's image API, whose wire format these routes
 * follow, takes at most 32,000 characters for GPT image prompts, and relays pass the text on
 * unchanged. A longer prompt is refused before anything is sent.
 */
export const MAX_PROMPT_CHARS = 32_000;

/** The refusal text for a prompt past MAX_PROMPT_CHARS: names the length and where the bound comes from. */
export function promptTooLong(length: number): string | undefined {
	if (length <= MAX_PROMPT_CHARS) return undefined;
	return `Prompt is ${length} characters long; at most ${MAX_PROMPT_CHARS} are accepted (the spec gives no bound: this is what OpenAI-style image APIs take)`;
}
