import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { RunOptions } from '../../engine/running/perItem';
import { analysisProperties, runAnalysis, type AnalysisKind } from '../analysis';

/*
 * File → Analyze Document: a text model reads the item's PDF or text files (binary fields) and
 * answers a question about them, in one billed chat call per item (actions/analysis.ts).
 */

const OPERATION: AnalysisKind = {
	kind: 'document',
	part: 'file',
	question: 'Summarize this document.',
	show: { resource: ['file'], operation: ['analyzeDocument'] },
};

export const description = analysisProperties(OPERATION, {
	displayName: 'Text Input',
	name: 'text',
	type: 'string',
	typeOptions: { rows: 2 },
	default: 'Summarize this document.',
	placeholder: 'Summarize this document.',
	description: 'What to ask about the document',
});

/** Each item's question and files in one chat call; the charges from the usage log after the run. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	return await runAnalysis(this, run, OPERATION);
}
