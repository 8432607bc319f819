'use strict';
// What a written file really is, read from its own bytes: a PNG's width and height (its IHDR), an
// MP4's playing length (mvhd) and picture size (the video track's tkhd). The demo prints these
// beside the files, so a label never says what was asked for when the file is something else (the
// simulator answers every video with the same short test clip).

const { pngSize } = require('../../test/simulator/png');

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'edts', 'udta']);

/** The boxes of an MP4 from `start` to `end`, descending into containers: [{ type, at, size }]. */
function boxes(buf, start = 0, end = buf.length, found = []) {
	let at = start;
	while (at + 8 <= end) {
		let size = buf.readUInt32BE(at);
		let header = 8;
		if (size === 1 && at + 16 <= end) {
			size = Number(buf.readBigUInt64BE(at + 8));
			header = 16;
		} else if (size === 0) size = end - at;
		if (size < header || at + size > end) break;
		const type = buf.toString('latin1', at + 4, at + 8);
		found.push({ type, at, size, body: at + header });
		if (CONTAINERS.has(type)) boxes(buf, at + header, at + size, found);
		at += size;
	}
	return found;
}

function mp4Facts(buf) {
	const all = boxes(buf);
	if (all[0]?.type !== 'ftyp') return undefined;
	const mvhd = all.find((b) => b.type === 'mvhd');
	let seconds;
	if (mvhd) {
		const version = buf[mvhd.body];
		const [scale, duration] =
			version === 1
				? [buf.readUInt32BE(mvhd.body + 20), Number(buf.readBigUInt64BE(mvhd.body + 24))]
				: [buf.readUInt32BE(mvhd.body + 12), buf.readUInt32BE(mvhd.body + 16)];
		if (scale > 0) seconds = Math.round((duration / scale) * 10) / 10;
	}
	// A track's width and height (16.16 fixed point) close its tkhd; audio tracks have 0 × 0.
	let width;
	let height;
	for (const tkhd of all.filter((b) => b.type === 'tkhd')) {
		const w = buf.readUInt32BE(tkhd.at + tkhd.size - 8) / 65536;
		const h = buf.readUInt32BE(tkhd.at + tkhd.size - 4) / 65536;
		if (w > 0 && h > 0) {
			width = Math.round(w);
			height = Math.round(h);
			break;
		}
	}
	return { kind: 'video', seconds, width, height };
}

/** { kind: 'image', width, height } | { kind: 'video', seconds, width, height } | undefined. */
function mediaFacts(buf) {
	if (!Buffer.isBuffer(buf) || buf.length < 24) return undefined;
	const png = pngSize(buf);
	if (png) return { kind: 'image', ...png };
	if (buf.toString('latin1', 4, 8) === 'ftyp') return mp4Facts(buf);
	return undefined;
}

/** "1024x576" or "4 s, 640x360", for the files list. */
function describeFacts(facts) {
	if (!facts) return '';
	const size = facts.width && facts.height ? `${facts.width}x${facts.height}` : '';
	if (facts.kind === 'video') return [facts.seconds !== undefined ? `${facts.seconds} s` : '', size].filter(Boolean).join(', ');
	return size;
}

module.exports = { mediaFacts, describeFacts };
