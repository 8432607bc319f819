import type { QueryRoute } from '../../api/tasks/routes';

/** The three ways to submit a video (docs/gateway-contract.md §4.8, §4.9), and where each one's task is read. */
export type VideoRoute = 'unified' | 'compatibility' | 'multipart';

export interface VideoRouteInfo {
	name: string;
	description: string;
	path: string;
	queryRoute: QueryRoute;
	multipart: boolean;
	/** The finished file is fetched from GET /v1/videos/{id}/content with the API key (grok route). */
	contentDownload: boolean;
}

export const VIDEO_ROUTES: Record<VideoRoute, VideoRouteInfo> = {
	unified: {
		name: 'Unified (POST /v1/video/generations)',
		description: 'The route for new clients; the task is read with GET /v1/tasks/{ID}',
		path: '/v1/video/generations',
		queryRoute: 'generic',
		multipart: false,
		contentDownload: false,
	},
	compatibility: {
		name: 'Compatibility (POST /v1/videos, JSON)',
		description: 'The common video API shape; the task is read with GET /v1/videos/{ID}',
		path: '/v1/videos',
		queryRoute: 'video',
		multipart: false,
		contentDownload: false,
	},
	multipart: {
		name: 'Grok Multipart (POST /v1/videos, Form Data)',
		description:
			'Grok only: reference images are sent as files; the video is downloaded ' +
			'from /v1/videos/{ID}/content with the API key',
		path: '/v1/videos',
		queryRoute: 'video',
		multipart: true,
		contentDownload: true,
	},
};
