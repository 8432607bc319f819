/** The file types a model makes, by MIME type. */
export const EXTENSIONS: Record<string, string> = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
	'image/gif': 'gif',
	'video/mp4': 'mp4',
	'video/webm': 'webm',
	'video/quicktime': 'mov',
	'audio/mpeg': 'mp3',
	'audio/ogg': 'opus',
	'audio/aac': 'aac',
	'audio/flac': 'flac',
	'audio/wav': 'wav',
	'audio/pcm': 'pcm',
};

export const MIME_BY_EXTENSION: Record<string, string> = {
	...Object.fromEntries(Object.entries(EXTENSIONS).map(([mime, ext]) => [ext, mime])),
	jpeg: 'image/jpeg',
	m4v: 'video/mp4',
	ogg: 'audio/ogg',
};

/** ISO base media boxes a file may start with (MP4, MOV). */
const MP4_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'wide', 'skip', 'pnot']);

/**
 * What the bytes are, by their magic numbers: PNG, JPEG, WebP, GIF, MP4/MOV, WebM, and the audio
 * of /v1/audio/speech (MP3, Ogg/Opus, AAC in ADTS, FLAC, WAV; raw PCM has no mark). Anything else
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
	const audio = sniffAudio(bytes);
	if (audio) return audio;
	if (bytes.length >= 8 && MP4_BOXES.has(bytes.toString('latin1', 4, 8))) {
		return bytes.toString('latin1', 4, 8) === 'ftyp' && bytes.toString('latin1', 8, 12) === 'qt  '
			? 'video/quicktime'
			: 'video/mp4';
	}
	return undefined;
}

/** MP3 (an ID3 tag or an MPEG audio frame), Ogg, AAC (ADTS), FLAC, WAV. */
function sniffAudio(bytes: Buffer): string | undefined {
	if (bytes.length < 4) return undefined;
	const head = bytes.toString('latin1', 0, 4);
	if (head === 'OggS') return 'audio/ogg';
	if (head === 'fLaC') return 'audio/flac';
	if (head === 'RIFF' && bytes.length >= 12 && bytes.toString('latin1', 8, 12) === 'WAVE')
		return 'audio/wav';
	if (bytes.toString('latin1', 0, 3) === 'ID3') return 'audio/mpeg';
	// An MPEG frame's 11 sync bits; the layer bits (0 in ADTS) tell AAC from MP3. JPEG's FF D8 has no sync.
	if (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0) {
		const layer = (bytes[1] >> 1) & 0x03;
		if ((bytes[1] & 0xf0) === 0xf0 && layer === 0) return 'audio/aac';
		if (layer !== 0) return 'audio/mpeg';
	}
	return undefined;
}

export function describeBytes(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
	if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
	return `${bytes} bytes`;
}
