import { resourceModule } from '../resourceModule';
import * as analyze from './analyze.operation';
import * as edit from './edit.operation';
import * as generate from './generate.operation';
import { IMAGE_FIELDS_BEFORE, imageFieldsAfter } from './imageFields';

export const { operations, description } = resourceModule(
	'image',
	[
		[
			{
				name: 'Generate',
				value: 'generate',
				action: 'Generate images from a prompt',
				description:
					'Create new images from a text prompt. Returns one item per image with ' +
					'its URL, the parameters sent and an estimated cost (list price ' +
					'0.015-0.03 USD per call whatever the number of images, alt host 0.02 USD ' +
					'per image; GPT 2K/4K 1.5×), plus the image file as binary data. Billed ' +
					'per call.',
			},
			generate,
		],
		[
			{
				name: 'Edit',
				value: 'edit',
				action: 'Edit images with a prompt',
				description:
					'Change, repaint or combine existing images (URLs or binary input files) ' +
					'following a prompt. Returns one item per result image with its URL, the ' +
					'parameters sent and an estimated cost, plus the image file as binary ' +
					'data. Billed per call.',
			},
			edit,
		],
		[
			{
				name: 'Analyze',
				value: 'analyze',
				action: 'Analyze an image',
				description:
					'Ask a text model that reads images about one or more images (binary files or URLs): ' +
					'a description, captions, what is in it. Returns the answer as text with its charge; ' +
					"one chat call per item, its cost the model's token price on the gateway.",
			},
			analyze,
		],
	],
	{
		before: IMAGE_FIELDS_BEFORE,
		after: imageFieldsAfter([
			['generate', generate.DEFAULTS],
			['edit', edit.DEFAULTS],
		]),
	},
);
