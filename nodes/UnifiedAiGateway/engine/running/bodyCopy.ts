import type { IDataObject } from 'n8n-workflow';

/** The most of a gateway answer an item carries: every item is stored with the execution. */
export const BODY_COPY_LIMIT = 64 * 1024;

/**
 * A gateway answer as an output item carries it (`raw`, `submitResponse`): whole up to 64 KB;
 * past that, its first 64 KB as text with a note that it was cut (a 50 MB answer copied into every
 * item would be stored with the execution many times over).
 */
export function bodyCopy(body: IDataObject): IDataObject {
	const text = JSON.stringify(body) ?? '';
	if (text.length <= BODY_COPY_LIMIT) return body;
	return {
		truncated: true,
		note: `The gateway's answer was ${text.length} characters; only its first ${BODY_COPY_LIMIT} are kept here.`,
		text: text.slice(0, BODY_COPY_LIMIT),
	};
}
