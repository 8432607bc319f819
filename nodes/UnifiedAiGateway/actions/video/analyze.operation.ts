import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { RunOptions } from '../../engine/running/perItem';
import { analysisProperties, runAnalysis, type AnalysisKind } from '../analysis';

/*
 * Video → Analyze: a text model that reads videos looks at the item's videos (binary fields or URLs)
 * and answers a question about them, in one billed chat call per item (actions/analysis.ts).
 */

const OPERATION: AnalysisKind = {
	kind: 'video',
	part: 'video_url',
	question: 'What happens in this video?',
	show: { resource: ['video'], operation: ['analyze'] },
};

export const description = analysisProperties(OPERATION, {
	displayName: 'Text Input',
	name: 'text',
	type: 'string',
	typeOptions: { rows: 2 },
	default: 'What happens in this video?',
	placeholder: 'What happens in this video?',
	description: 'What to ask about the video',
});

/** Each item's question and files in one chat call; the charges from the usage log after the run. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	return await runAnalysis(this, run, OPERATION);
}
