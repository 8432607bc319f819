/*
 * The kinds of model the gateway sells, one row each: the name the node shows (its resource, its
 * Model Type in Account → List Models, its model picker), and the kind of file its results are.
 * The model rows of a group live in their own file (textModels.ts, imageModels.ts, …); a new group
 * is one row here and its list in models.ts.
 */
import type { FileKind } from './fileKinds';

interface GroupFacts {
	name: string;
	/** "an image model": for messages. */
	aModel: string;
	/** What its results are stored as, when they are files. */
	files?: FileKind;
}

export const MODEL_GROUPS = {
	text: { name: 'Text', aModel: 'a text model' },
	image: { name: 'Image', aModel: 'an image model', files: 'image' },
	video: { name: 'Video', aModel: 'a video model', files: 'video' },
	audio: { name: 'Audio', aModel: 'an audio model', files: 'audio' },
	music: { name: 'Music', aModel: 'a music model version', files: 'audio' },
} as const satisfies Record<string, GroupFacts>;

export type ModelGroup = keyof typeof MODEL_GROUPS;

export const GROUP_IDS = Object.keys(MODEL_GROUPS) as ModelGroup[];

/** The list search method of a group's model picker (methods/modelSearch.ts): searchImageModels. */
export function searchMethodOf(group: ModelGroup): string {
	return `search${MODEL_GROUPS[group].name}Models`;
}
