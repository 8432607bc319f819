import type { FieldRule, ModelSpec } from './types';

/*
 * Speech models the relay serves on POST /v1/audio/speech (OpenAI's wire format; new-api's
 * `relay/channel/openai` passes it through and converts it for other channels), one row each.
 * Audio → Generate Speech builds its fields and checks from these rows, as Image does from its own.
 * Voices are the models' own lists as suggestions: another channel's voices are sent as typed.
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
];

/** An id the registry does not know: the common fields of OpenAI's speech route. */
export const UNKNOWN_AUDIO_MODEL: Omit<ModelSpec, 'id'> = {
	group: 'audio',
	host: 'main',
	mode: 'sync',
	fields: { speech: UNKNOWN_FIELDS },
};
