import type { QueryRoute } from '../../registry/types';
import type { GatewayHost } from '../../transport/urls';
import { taskPathSegment } from './taskIds';
import type { FileKind } from '../../registry/fileKinds';

// The name list lives with the model rows (each row names its query route); the routes themselves here.
export type { QueryRoute };

export interface RouteInfo {
	host: GatewayHost;
	path: (taskId: string) => string;
	/**
	 * docs/gateway-contract.md §8: image tasks 3-5 s, alt host 5-10 s, video 5 s. Also the floor a user's interval is
	 * raised to.
	 */
	intervalMs: number;
	/** docs/gateway-contract.md §8: async images up to 10 min; video at least 30 min. */
	deadlineMs: number;
	label: string;
	/**
	 * Where the route serves a finished task's file with the API key (docs/gateway-contract.md §2.7, §4.9:
	 * `/v1/videos/{id}/content`).
	 */
	contentPath?: (taskId: string) => string;
	/**
	 * Where the upstream relay reads the same tasks when this gateway has no such route (it answers
	 * 404 `Invalid URL`): tried in order, the first that answers is kept for the run.
	 */
	fallbacks?: Array<{
		label: string;
		path: (taskId: string) => string;
		contentPath?: (taskId: string) => string;
	}>;
	/**
	 * Which answers send the read on to the next reading: 'invalidUrl' (default), the relay's 404
	 * for a path it lacks; 'notFound', also a 404 or 400 `task_not_exist` for this task (a route
	 * that knows only some of its tasks, docs/gateway-contract.md §10.9).
	 */
	fallbackOn?: 'invalidUrl' | 'notFound';
	/**
	 * The relay's Suno envelope (docs/gateway-contract.md §10.15): `{code: "success", data: <task>}`,
	 * any other `code` a refusal; the results are the songs of `data.data[]` (or the lyrics).
	 */
	songs?: true;
}

const MINUTE = 60_000;

/**
 * The one place a task's `/content` path is built: where the video routes serve a finished task's
 * file with the API key (docs/gateway-contract.md §2.7, §4.9).
 */
export function videoContentPath(taskId: string): string {
	return `/v1/videos/${taskPathSegment(taskId)}/content`;
}

export const QUERY_ROUTES: Record<QueryRoute, RouteInfo> = {
	generic: {
		host: 'main',
		path: (id) => `/v1/tasks/${taskPathSegment(id)}`,
		intervalMs: 3_000,
		// The unified video route's tasks are read here: the video window applies (docs/gateway-contract.md §8).
		deadlineMs: 30 * MINUTE,
		label: 'generic task query',
		// docs/gateway-contract.md §10.2: a build without `/v1/tasks` reads unified video tasks here.
		fallbacks: [
			{
				label: 'GET /v1/video/generations/{id}',
				path: (id) => `/v1/video/generations/${taskPathSegment(id)}`,
			},
			{
				label: 'GET /v1/videos/{id}',
				path: (id) => `/v1/videos/${taskPathSegment(id)}`,
				contentPath: videoContentPath,
			},
		],
	},
	image: {
		host: 'main',
		path: (id) => `/v1/images/generations/${taskPathSegment(id)}`,
		intervalMs: 3_000,
		deadlineMs: 10 * MINUTE,
		label: 'image task query',
		// docs/gateway-contract.md §10.9: some forks keep a GPT 2.5 edit task only at its own route.
		fallbacks: [
			{
				label: 'GET /v1/images/edits/{id}',
				path: (id) => `/v1/images/edits/${taskPathSegment(id)}`,
			},
		],
		fallbackOn: 'notFound',
	},
	video: {
		host: 'main',
		path: (id) => `/v1/videos/${taskPathSegment(id)}`,
		intervalMs: 5_000,
		deadlineMs: 30 * MINUTE,
		label: 'video task query',
		contentPath: videoContentPath,
	},
	// docs/gateway-contract.md §10.15: the relay reads Suno every 15 s; a song takes a minute or more.
	suno: {
		host: 'main',
		path: (id) => `/suno/fetch/${taskPathSegment(id)}`,
		intervalMs: 5_000,
		deadlineMs: 10 * MINUTE,
		label: 'Suno task query',
		songs: true,
	},
	alt: {
		host: 'alt',
		path: (id) => `/v1/tasks/${taskPathSegment(id)}`,
		intervalMs: 5_000,
		deadlineMs: 10 * MINUTE,
		label: 'alt-host task query',
	},
};

export const QUERY_ROUTE_OPTIONS = [
	{ name: 'Generic Task Query (GET /v1/tasks/{ID})', value: 'generic' },
	{ name: 'Image Task (GET /v1/images/generations/{ID})', value: 'image' },
	{ name: 'Video Task (GET /v1/videos/{ID})', value: 'video' },
	{ name: 'Alt Host Task (GET /v1/tasks/{ID} on the Alt Base URL)', value: 'alt' },
	{ name: 'Music Task (GET /suno/fetch/{ID})', value: 'suno' },
];

/**
 * What a route's result files are, for their time bound, size default and messages: the generic
 * route reads unified video tasks too (its window is the video one), so it counts as video.
 */
export function fileKindOf(route: QueryRoute): FileKind {
	if (QUERY_ROUTES[route].songs) return 'audio';
	return route === 'video' || route === 'generic' ? 'video' : 'image';
}
