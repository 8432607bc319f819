import { resourceModule } from '../resourceModule';
import * as speech from './speech.operation';
import * as transcribe from './transcribe.operation';
import * as translate from './translate.operation';

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
	[
		{
			name: 'Transcribe a Recording',
			value: 'transcribe',
			action: 'Transcribe a recording',
			description:
				'Turn speech into text in its own language (speech to text, POST /v1/audio/transcriptions): ' +
				'the transcript as text or JSON, or SRT/VTT subtitles also as a file. Billed by the ' +
				"recording's length, at the model's price on the gateway.",
		},
		transcribe,
	],
	[
		{
			name: 'Translate a Recording',
			value: 'translate',
			action: 'Translate a recording into English',
			description:
				'Turn speech in any language into English text (POST /v1/audio/translations, whisper-1): ' +
				'text, JSON or SRT/VTT subtitles. Billed like a transcription.',
		},
		translate,
	],
]);
