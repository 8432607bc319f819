import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { RunOptions } from '../../engine/running/perItem';
import { analysisProperties, runAnalysis, type AnalysisKind } from '../analysis';

/*
 * Image → Analyze: a text model that reads images looks at the item's images (binary fields or URLs)
 * and answers a question about them, in one billed chat call per item (actions/analysis.ts).
 */

const OPERATION: AnalysisKind = {
	kind: 'image',
	part: 'image_url',
	question: "What's in this image?",
	show: { resource: ['image'], operation: ['analyze'] },
};

export const description = analysisProperties(OPERATION, {
	displayName: 'Text Input',
	name: 'text',
	type: 'string',
	typeOptions: { rows: 2 },
	default: "What's in this image?",
	placeholder: "What's in this image?",
	description: 'What to ask about the image',
});

/** Each item's question and files in one chat call; the charges from the usage log after the run. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	return await runAnalysis(this, run, OPERATION);
}
