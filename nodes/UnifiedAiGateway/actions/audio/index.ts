import { resourceModule } from '../resourceModule';
import * as speech from './speech.operation';

export const { operations, description } = resourceModule('audio', [
	[
		{
			name: 'Generate Speech',
			value: 'speech',
			action: 'Generate speech from text',
			description:
				'Read a text aloud with a speech model (text to speech, POST /v1/audio/speech): ' +
				'the audio (MP3, Opus, AAC, FLAC, WAV or PCM) in binary data, with the model, voice ' +
				"and size. Billed by the text's length or per call, at the model's price on the gateway.",
		},
		speech,
	],
]);
