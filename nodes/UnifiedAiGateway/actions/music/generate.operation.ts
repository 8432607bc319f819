import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { chargeJson } from '../../api/charges';
import type { Song } from '../../api/tasks/songs';
import { taskIdProblem } from '../../api/tasks/taskIds';
import type { TaskSnapshot } from '../../api/tasks/snapshot';
import { shownUrl } from '../../api/tasks/results';
import {
	checkSpend,
	estimateOf,
	outputItems,
	readItems,
	submitItems,
	waitForResults,
	type Batch,
} from '../../engine/running/batch';
import { DownloadError } from '../../engine/files/downloadTypes';
import type { RunOptions } from '../../engine/running/perItem';
import type { Submitted } from '../../engine/running/types';
import { checkDownloads, downloadLimitOptions } from '../../params/downloadOptions';
import { binaryOutputOption, downloadField, optionsField } from '../../params/fields';
import { checkPrompt, readBoolean, readNumber } from '../../params/inputs';
import type { RunDefaults } from '../../params/runDefaults';
import { concurrencyOption, submitTimeoutOption, waitFields } from '../../params/runFields';
import { readBatchSettings } from '../../params/runSettings';
import { readSpendSettings, spendGuardOptions } from '../../params/spendGuardOptions';
import { perCallEstimate } from '../../pipeline/cost';
import { refuse } from '../../pipeline/refusals';
import { itemsPerUrl, resultDownload, resultFile, taskJson } from '../../pipeline/taskOutput';
import { MAX_DESCRIPTION_CHARS, MUSIC_MODELS, SUNO_PRICE_NAMES } from '../../registry/musicModels';
import { readSubmitTimeoutMs, submitSuno, sunoCostJson } from './sunoSubmit';

/*
 * Music → Generate: songs from a description or from lyrics, title and style tags, made by Suno
 * through the relay (POST /suno/submit/music, docs/gateway-contract.md §10.15). One submit makes
 * two songs; each song is an item with its MP3 in binary data. Billed per submit (`suno_music`).
 */

/**
 * How Generate runs with Waiting and Options left out (params/runDefaults.ts): a song takes a
 * minute or more and the relay reads Suno every 15 s, so a read every 5 s and 10 minutes at most.
 */
export const DEFAULTS: RunDefaults & { submitTimeoutSeconds: number } = {
	maxWaitMinutes: 10,
	pollIntervalSeconds: 5,
	routes: ['suno'],
	concurrency: 5,
	submitTimeoutSeconds: 60,
};

const show = { resource: ['music'], operation: ['generate'] };
const displayOptions = { show };
const lyricsMode = { musicMode: ['lyrics'] };

const properties: INodeProperties[] = [
	{
		displayName: 'Mode',
		name: 'musicMode',
		type: 'options',
		default: 'description',
		options: [
			{
				name: 'From a Description',
				value: 'description',
				description: 'Suno writes the lyrics and picks the style from a short description',
			},
			{
				name: 'From Lyrics',
				value: 'lyrics',
				description: "Your lyrics, title and style tags (Suno's custom mode)",
			},
		],
	},
	{
		displayName: 'Description',
		name: 'musicDescription',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		placeholder: 'An upbeat jingle about a spring sale, bright synths',
		description: `What the song is about and how it sounds, at most ${MAX_DESCRIPTION_CHARS} characters`,
		displayOptions: { show: { musicMode: ['description'] } },
	},
	{
		displayName: 'Lyrics',
		name: 'musicLyrics',
		type: 'string',
		typeOptions: { rows: 6 },
		default: '',
		placeholder: '[Verse]\nNodes in a row\n[Chorus]\nLet it flow',
		description:
			'The words to sing, with [Verse] / [Chorus] marks if you like; may be empty for an instrumental',
		displayOptions: { show: lyricsMode },
	},
	{
		displayName: 'Title',
		name: 'musicTitle',
		type: 'string',
		default: '',
		placeholder: 'Let it flow',
		description: 'The title of the song',
		displayOptions: { show: lyricsMode },
	},
	{
		displayName: 'Style Tags',
		name: 'musicStyle',
		type: 'string',
		default: '',
		placeholder: 'pop, upbeat, female vocals',
		description: 'Genres, moods and instruments, comma-separated',
		displayOptions: { show: lyricsMode },
	},
	{
		displayName: 'Instrumental',
		name: 'musicInstrumental',
		type: 'boolean',
		default: false,
		description: 'Whether to make the song without vocals',
	},
	{
		displayName: 'Model Version',
		name: 'musicModelVersion',
		type: 'options',
		default: 'chirp-v4',
		options: MUSIC_MODELS.map((m) => ({ name: m.id, value: m.id, description: m.description })),
		description:
			"Suno's model version (sent as mv). Another version the gateway offers can be given by an expression.",
	},
	...waitFields(show, DEFAULTS),
	downloadField(show, true, 'songs (MP3)'),
	optionsField(show, [
		binaryOutputOption('The name of the output binary field to put the MP3 in'),
		{
			displayName: 'Continue From Clip ID',
			name: 'continueClipId',
			type: 'string',
			default: '',
			placeholder: '3f1c2a9e-0000-4000-8000-000000000000',
			description:
				'A song to extend (the clipId of an earlier result): the new songs go on from it',
		},
		{
			displayName: 'Continue From Task ID',
			name: 'continueTaskId',
			type: 'string',
			default: '',
			placeholder: 'task_0123456789abcdef0123456789abcdef',
			description:
				'The task that made that clip (its taskId): the relay needs it to find the clip. Used with ' +
				'Continue From Clip ID.',
		},
		{
			displayName: 'Continue At (Seconds)',
			name: 'continueAtSeconds',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 1 },
			default: 0,
			description: 'Where in that clip the new song goes on; used with Continue From Clip ID',
		},
		{
			displayName: 'Include Cover Picture',
			name: 'includeCover',
			type: 'boolean',
			default: false,
			description: "Whether to download each song's cover picture too, into the binary field cover",
		},
		concurrencyOption(DEFAULTS),
		...downloadLimitOptions('audio'),
		submitTimeoutOption(DEFAULTS.submitTimeoutSeconds),
	]),
	spendGuardOptions(show, 'music'),
];

export const description = updateDisplayOptions(displayOptions, properties);

/** One item's music request, checked; nothing sent. */
interface MusicJob {
	version: string;
	mode: 'description' | 'lyrics';
	body: IDataObject;
	timeoutMs: number;
	cover: boolean;
}

/** Every item read and checked, the run's cost checked, then submitted, waited for and output. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	const settings = readBatchSettings(this, 'music job', DEFAULTS);
	const batch = await readItems(this, run, settings, (i) => readJob(this, i));
	await checkSpend(
		batch,
		() => readSpendSettings(this),
		(job, _spend, prices) =>
			perCallEstimate(SUNO_PRICE_NAMES.music, `${job.mode}, ${job.version}, two songs`, prices),
	);
	const submits = submitItems(
		batch,
		async (job, i) => await submitSuno(this, 'music', job.body, job.timeoutMs, i),
	);
	const results = await waitForResults(batch, submits, async (job, answer, i, task) =>
		songItems(this, batch, job, answer, i, task!),
	);
	return await outputItems(results, (job) => ({
		modelVersion: job.version,
		...costJson(batch, job),
	}));
}

/** Reads and checks everything of one item; sends nothing. */
function readJob(ctx: IExecuteFunctions, i: number): MusicJob {
	const mode = ctx.getNodeParameter('musicMode', i, 'description') as string;
	if (mode !== 'description' && mode !== 'lyrics')
		throw refuse(ctx, i, `Mode '${mode}' is unknown; use description or lyrics`);
	const version = String(ctx.getNodeParameter('musicModelVersion', i, 'chirp-v4') ?? '').trim();
	if (!/^[\w.-]{1,64}$/.test(version))
		throw refuse(
			ctx,
			i,
			`Model Version ${JSON.stringify(version.slice(0, 80))} is not a version name; ` +
				`use one of ${MUSIC_MODELS.map((m) => m.id).join(', ')}`,
		);
	const row = MUSIC_MODELS.find((m) => m.id === version);
	const instrumental = readBoolean(ctx, 'musicInstrumental', i, false, 'Instrumental');
	const body: IDataObject = { mv: version, make_instrumental: instrumental };
	if (mode === 'description') {
		const given = checkPrompt(ctx.getNodeParameter('musicDescription', i, ''), 'Description');
		if ('problem' in given) throw refuse(ctx, i, `${given.problem}: describe the song to make`);
		if (given.value.length > MAX_DESCRIPTION_CHARS)
			throw refuse(
				ctx,
				i,
				`Description has ${given.value.length} characters; Suno takes at most ` +
					`${MAX_DESCRIPTION_CHARS}. For longer words use Mode → From Lyrics`,
			);
		body.gpt_description_prompt = given.value;
	} else {
		const lyrics = textParameter(ctx, i, 'musicLyrics', 'Lyrics');
		const title = textParameter(ctx, i, 'musicTitle', 'Title');
		const tags = textParameter(ctx, i, 'musicStyle', 'Style Tags');
		if (!lyrics && !instrumental)
			throw refuse(ctx, i, 'Lyrics is empty: write the words to sing, or turn on Instrumental');
		if (!lyrics && !tags)
			throw refuse(ctx, i, 'Style Tags is empty: an instrumental from lyrics mode needs its style');
		const maxLyrics = row?.limits?.maxLyricsChars;
		if (maxLyrics !== undefined && lyrics.length > maxLyrics)
			throw refuse(
				ctx,
				i,
				`Lyrics has ${lyrics.length} characters; ${version} takes at most ${maxLyrics}`,
			);
		const maxStyle = row?.limits?.maxStyleChars;
		if (maxStyle !== undefined && tags.length > maxStyle)
			throw refuse(
				ctx,
				i,
				`Style Tags has ${tags.length} characters; ${version} takes at most ${maxStyle}`,
			);
		// The relay drops empty ones (dto/suno.go omitempty): only what was given is sent.
		if (lyrics) body.prompt = lyrics;
		if (title) body.title = title;
		if (tags) body.tags = tags;
	}
	const clip = textParameter(ctx, i, 'options.continueClipId', 'Options → Continue From Clip ID');
	if (clip) {
		if (/\s|[/?#\\]/.test(clip))
			throw refuse(
				ctx,
				i,
				`Options → Continue From Clip ID ${JSON.stringify(clip.slice(0, 80))} is not a clip id; ` +
					'give the clipId of an earlier song, for example {{ $json.clipId }}',
			);
		// The relay refuses a clip without the task that made it (400 "task id is empty").
		const task = textParameter(ctx, i, 'options.continueTaskId', 'Options → Continue From Task ID');
		if (!task)
			throw refuse(
				ctx,
				i,
				'Options → Continue From Task ID is empty: the relay needs the task that made the clip, ' +
					'for example {{ $json.taskId }} beside {{ $json.clipId }}',
			);
		const problem = taskIdProblem(task);
		if (problem)
			throw refuse(
				ctx,
				i,
				`Options → Continue From Task ID ${JSON.stringify(task.slice(0, 80))} ${problem}`,
			);
		body.task_id = task;
		body.continue_clip_id = clip;
		body.continue_at = readNumber(ctx, 'continueAtSeconds', i, {
			name: 'options.continueAtSeconds',
			fallback: 0,
		});
	}
	const timeoutMs = readSubmitTimeoutMs(ctx, i, DEFAULTS.submitTimeoutSeconds);
	const download = checkDownloads(ctx, i, true);
	const cover = download && readBoolean(ctx, 'options.includeCover', i, false, 'Include Cover');
	return { version, mode, body, timeoutMs, cover };
}

/** A text parameter, trimmed; anything but text (an object from an expression) is refused. */
function textParameter(ctx: IExecuteFunctions, i: number, name: string, label: string): string {
	const value = ctx.getNodeParameter(name, i, '');
	if (value === undefined || value === null) return '';
	if (typeof value !== 'string' && typeof value !== 'number')
		throw refuse(
			ctx,
			i,
			`${label} is not text: map the text itself, for example {{ $json.title }}`,
		);
	return String(value).trim();
}

/** The estimate from the gateway's price list (suno_music per submit), as the items show it. */
function costJson(batch: Batch<MusicJob>, job: MusicJob): IDataObject {
	return sunoCostJson(estimateOf(batch, job), 'submit (two songs)');
}

/** A finished task: one item per song, its MP3 in binary data, its cover picture if asked. */
async function songItems(
	ctx: IExecuteFunctions,
	batch: Batch<MusicJob>,
	job: MusicJob,
	answer: Submitted,
	itemIndex: number,
	task: TaskSnapshot,
): Promise<INodeExecutionData[]> {
	const songs = (task.songs ?? []).filter((song) => song.audioUrl);
	// The task's facts without its list of songs: each item is one of them.
	const taskFacts = taskJson(task);
	delete taskFacts.songs;
	// The task's charge, shared by its songs: the run's items add up to what it was charged.
	const charge = await chargeJson(ctx, task, songs.length, itemIndex);
	const json = (song: Song, index: number): IDataObject => ({
		...taskFacts,
		queryRoute: answer.route,
		songIndex: index + 1,
		songCount: songs.length,
		...songJson(song),
		modelVersion: job.version,
		...costJson(batch, job),
		charge,
	});
	const download = resultDownload(ctx, batch, answer, itemIndex, {
		kind: 'audio',
		baseName: task.taskId,
		defaultMimeType: 'audio/mpeg',
		paid: { taskId: task.taskId, expiresAt: task.expiresAt },
	});
	const items = await itemsPerUrl(
		ctx,
		songs.map((song) => song.audioUrl!),
		(_url, index) => json(songs[index], index),
		download,
	);
	if (!download || !job.cover) return items;
	for (const item of items) {
		const song = songs[Number(item.json.songIndex) - 1];
		if (!song?.imageUrl || !item.binary || item.json.downloadFailed) continue;
		const picture = await resultFile(ctx, [song.imageUrl], 0, {
			itemIndex,
			baseName: `${task.taskId}-cover-${String(item.json.songIndex)}`,
			defaultMimeType: 'image/jpeg',
			kind: 'image',
			paid: { taskId: task.taskId },
		});
		if (picture instanceof DownloadError) item.json.coverError = picture.message;
		else item.binary.cover = picture.binary;
	}
	return items;
}

/** What one song is, as the item shows it. */
function songJson(song: Song): IDataObject {
	return {
		clipId: song.clipId ?? null,
		title: song.title ?? null,
		duration: song.duration ?? null,
		lyrics: song.lyrics ?? null,
		tags: song.tags ?? null,
		modelName: song.modelName ?? null,
		audioUrl: shownUrl(song.audioUrl!),
		imageUrl: song.imageUrl ?? null,
		videoUrl: song.videoUrl ?? null,
	};
}
