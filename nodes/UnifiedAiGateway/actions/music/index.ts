import { resourceModule } from '../resourceModule';
import * as generate from './generate.operation';
import * as writeLyrics from './writeLyrics.operation';

export const { operations, description } = resourceModule('music', [
	[
		{
			name: 'Generate',
			value: 'generate',
			action: 'Generate music',
			description:
				'Make songs with Suno from a description or from lyrics, title and style (POST ' +
				'/suno/submit/music): two songs per item, each an item with its MP3 in binary data, ' +
				'its title, duration and lyrics. Billed per submit (suno_music on the price list).',
		},
		generate,
	],
	[
		{
			name: 'Write Lyrics',
			value: 'writeLyrics',
			action: 'Write song lyrics',
			description:
				'Have Suno write lyrics and a title from a short idea (POST /suno/submit/lyrics), ' +
				'for Generate → From Lyrics. Billed per submit (suno_lyrics on the price list).',
		},
		writeLyrics,
	],
]);
