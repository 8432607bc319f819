import type { FieldRule, ModelSpec } from './types';

/*
 * Audio models the relay serves, one row each, in OpenAI's wire format (new-api's
 * `relay/channel/openai` passes it through and converts it for other channels): speech models on
 * POST /v1/audio/speech, and speech-to-text models on /v1/audio/transcriptions and /translations.
 * Audio → Generate Speech, Transcribe and Translate build their fields and checks from these rows,
 * as Image does from its own. Voices are the models' own lists as suggestions: another channel's
 * voices are sent as typed.
 */

/** The voices OpenAI's tts-1 and tts-1-hd speak. */
const TTS1_VOICES = ['alloy', 'ash', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer'];
/** gpt-4o-mini-tts speaks those and four more. */
const MINI_TTS_VOICES = [...TTS1_VOICES, 'ballad', 'verse', 'marin', 'cedar'];

/** The formats /v1/audio/speech answers in; mp3 is what the API makes when none is asked for. */
export const SPEECH_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;

const format: FieldRule = {
	values: SPEECH_FORMATS,
	default: 'mp3',
	label: 'Audio Format',
	description:
		'The file the speech comes back as. mp3 for most uses, opus for streaming and low latency, ' +
		'aac for phones, flac for lossless, wav for editing, pcm for raw 24 kHz 16-bit samples.',
};

function voice(voices: readonly string[], fallback: string): FieldRule {
	return {
		values: voices,
		suggest: true,
		default: fallback,
		label: 'Voice',
		description:
			"The voice that reads the text. Another voice the gateway's channel offers can be typed in.",
	};
}

const speed: FieldRule = {
	min: 0.25,
	max: 4,
	default: 1,
	omit: 1,
	label: 'Speed',
	description: 'How fast the voice speaks, 0.25 to 4; 1 is normal and is not sent.',
};

/** The fields of a speech model the registry has no row for: OpenAI's wire format, nothing assumed. */
const UNKNOWN_FIELDS: Record<string, FieldRule> = {
	voice: {
		values: MINI_TTS_VOICES,
		suggest: true,
		default: 'alloy',
		label: 'Voice',
		description: "The voice that reads the text, as the gateway's channel names it.",
	},
	response_format: format,
	speed,
	instructions: {
		label: 'Instructions',
		description: 'How to speak (tone, accent, pace), for models that take it (gpt-4o-mini-tts)',
	},
};

/** What whisper-1 writes a transcript as; json is what the API answers when none is asked for. */
const WHISPER_FORMATS = ['json', 'text', 'srt', 'vtt', 'verbose_json'] as const;

function transcriptFormat(values: readonly string[]): FieldRule {
	return {
		values,
		default: 'json',
		label: 'Transcript Format',
		description:
			'json and text give the words; srt and vtt subtitles with their times (also as a file); ' +
			'verbose_json adds the language, the duration and timed segments.',
	};
}

const prompt: FieldRule = {
	label: 'Prompt',
	description:
		'Text that guides the style or spells names and terms the recording uses, in its language',
};

const temperature: FieldRule = {
	min: 0,
	max: 1,
	label: 'Temperature',
	description: 'Sampling temperature, 0 to 1: higher is more varied; the model picks when not sent',
};

const language: FieldRule = {
	label: 'Language',
	description:
		"The recording's language as an ISO-639-1 code (en, de, fr, …): more accurate and faster " +
		'than letting the model detect it',
};

/** What a speech-to-text model takes on /transcriptions; /translations takes all but the language. */
function transcribeFields(format: FieldRule): Record<string, FieldRule> {
	return { response_format: format, language, prompt, temperature };
}

/** The files /v1/audio/transcriptions takes (OpenAI's limit, which the relay passes on). */
const TRANSCRIPTION_LIMITS = { maxFileBytes: 25 * 1024 * 1024 };

/** gpt-4o-transcribe and its mini: words only (json or text), no translation route. */
function gpt4oTranscribe(id: string): ModelSpec {
	return {
		id,
		group: 'audio',
		host: 'main',
		mode: 'sync',
		limits: TRANSCRIPTION_LIMITS,
		fields: {
			transcribe: transcribeFields(transcriptFormat(['json', 'text'])),
		},
	};
}

export const AUDIO_MODELS: readonly ModelSpec[] = [
	{
		id: 'tts-1',
		group: 'audio',
		host: 'main',
		mode: 'sync',
		fields: { speech: { voice: voice(TTS1_VOICES, 'alloy'), response_format: format, speed } },
	},
	{
		id: 'tts-1-hd',
		group: 'audio',
		host: 'main',
		mode: 'sync',
		fields: { speech: { voice: voice(TTS1_VOICES, 'alloy'), response_format: format, speed } },
	},
	{
		id: 'gpt-4o-mini-tts',
		group: 'audio',
		host: 'main',
		mode: 'sync',
		fields: {
			speech: {
				voice: voice(MINI_TTS_VOICES, 'coral'),
				response_format: format,
				instructions: UNKNOWN_FIELDS.instructions,
			},
		},
	},
	{
		id: 'whisper-1',
		group: 'audio',
		host: 'main',
		mode: 'sync',
		limits: TRANSCRIPTION_LIMITS,
		fields: {
			transcribe: transcribeFields(transcriptFormat(WHISPER_FORMATS)),
			translate: { response_format: transcriptFormat(WHISPER_FORMATS), prompt, temperature },
		},
	},
	gpt4oTranscribe('gpt-4o-transcribe'),
	gpt4oTranscribe('gpt-4o-mini-transcribe'),
];

/** An id the registry does not know: the common fields of OpenAI's speech route. */
export const UNKNOWN_AUDIO_MODEL: Omit<ModelSpec, 'id'> = {
	group: 'audio',
	host: 'main',
	mode: 'sync',
	fields: {
		speech: UNKNOWN_FIELDS,
		// Another channel's speech-to-text model: whisper's formats as suggestions, sent as typed.
		transcribe: transcribeFields({ ...transcriptFormat(WHISPER_FORMATS), suggest: true }),
		translate: {
			response_format: { ...transcriptFormat(WHISPER_FORMATS), suggest: true },
			prompt,
			temperature,
		},
	},
};
