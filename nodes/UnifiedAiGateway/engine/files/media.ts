/** The file types a model makes, by MIME type. */
export const EXTENSIONS: Record<string, string> = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
	'image/gif': 'gif',
	'video/mp4': 'mp4',
	'video/webm': 'webm',
	'video/quicktime': 'mov',
};

export const MIME_BY_EXTENSION: Record<string, string> = {
	...Object.fromEntries(Object.entries(EXTENSIONS).map(([mime, ext]) => [ext, mime])),
	jpeg: 'image/jpeg',
	m4v: 'video/mp4',
};

/** ISO base media boxes a file may start with (MP4, MOV). */
const MP4_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'wide', 'skip', 'pnot']);

/**
 * What the bytes are, by their magic numbers: PNG, JPEG, WebP, GIF, MP4/MOV, WebM. Anything else
 * (an HTML or XML error page, JSON, text, nothing) is not a result, whatever its Content-Type says.
 */
export function sniffMedia(bytes: Buffer): string | undefined {
	if (
		bytes.length >= 8 &&
		bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
	)
		return 'image/png';
	if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
		return 'image/jpeg';
	if (
		bytes.length >= 12 &&
		bytes.toString('latin1', 0, 4) === 'RIFF' &&
		bytes.toString('latin1', 8, 12) === 'WEBP'
	)
		return 'image/webp';
	if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6))) return 'image/gif';
	if (
		bytes.length >= 4 &&
		bytes[0] === 0x1a &&
		bytes[1] === 0x45 &&
		bytes[2] === 0xdf &&
		bytes[3] === 0xa3
	)
		return 'video/webm';
	if (bytes.length >= 8 && MP4_BOXES.has(bytes.toString('latin1', 4, 8))) {
		return bytes.toString('latin1', 4, 8) === 'ftyp' && bytes.toString('latin1', 8, 12) === 'qt  '
			? 'video/quicktime'
			: 'video/mp4';
	}
	return undefined;
}

export function describeBytes(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
	if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
	return `${bytes} bytes`;
}
