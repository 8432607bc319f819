'use strict';
// Is a downloaded video a real MP4 a player can play? The box structure is checked here; the
// playing length comes from Debian's ffprobe, and when ffprobe is missing that one check is
// skipped with a message saying so (the structure is still checked).
const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { tempDir, removeTempDir } = require('../n8n/tempdirs');

/** The top-level boxes: [{ type, size, at }]; throws when a size runs past the end. */
function topBoxes(buf) {
  const boxes = [];
  let at = 0;
  while (at + 8 <= buf.length) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    if (size === 1) size = Number(buf.readBigUInt64BE(at + 8));
    else if (size === 0) size = buf.length - at; // "to the end of the file"
    assert.ok(size >= 8 && at + size <= buf.length, `box '${type}' at ${at} has a bad size ${size} (file ${buf.length} bytes)`);
    boxes.push({ type, size, at });
    at += size;
  }
  assert.equal(at, buf.length, `${buf.length - at} stray bytes after the last box`);
  return boxes;
}

/** Asserts an `ftyp` box first (with a printable major brand) and a `moov` box. */
function assertMp4Structure(buf, label = 'video') {
  assert.ok(Buffer.isBuffer(buf) && buf.length > 16, `${label}: not a file (${buf && buf.length} bytes)`);
  const boxes = topBoxes(buf);
  assert.equal(boxes[0].type, 'ftyp', `${label}: the first box is '${boxes[0].type}', not 'ftyp'`);
  assert.ok(boxes[0].size >= 16, `${label}: the ftyp box is too short (${boxes[0].size})`);
  assert.match(buf.toString('latin1', 8, 12), /^[\x20-\x7e]{4}$/, `${label}: ftyp has no readable major brand`);
  assert.ok(boxes.some((b) => b.type === 'moov'), `${label}: no 'moov' box (${boxes.map((b) => b.type).join(', ')})`);
  return boxes;
}

function ffprobePath() {
  const found = childProcess.spawnSync('ffprobe', ['-version'], { stdio: 'ignore' });
  return found.error ? null : 'ffprobe';
}

const MISSING = 'ffprobe not found (Debian: apt-get install ffmpeg): the playing length was not checked';

/** Why the checks that need ffprobe cannot run here, or undefined when it is installed. */
function ffprobeMissing() {
  return ffprobePath() ? undefined : MISSING;
}

/**
 * { duration (s), width, height, codec } from ffprobe, or { skipped: reason } when ffprobe is not
 * installed (apt-get install ffmpeg).
 */
function probe(buf) {
  if (!ffprobePath()) return { skipped: MISSING };
  const dir = tempDir('probe-');
  const file = path.join(dir, 'video.mp4');
  try {
    fs.writeFileSync(file, buf);
    const res = childProcess.spawnSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'format=duration:stream=codec_name,width,height', '-of', 'json', file], { encoding: 'utf8' });
    assert.equal(res.status, 0, `ffprobe could not read the video: ${res.stderr}`);
    const out = JSON.parse(res.stdout);
    const stream = (out.streams || [])[0] || {};
    return { duration: Number(out.format && out.format.duration), width: stream.width, height: stream.height, codec: stream.codec_name };
  } finally {
    removeTempDir(dir);
  }
}

/** Structure + playing length > 0 with a video stream; returns the probe (or { skipped }). */
function assertPlayableMp4(buf, label = 'video') {
  assertMp4Structure(buf, label);
  const info = probe(buf);
  if (info.skipped) {
    console.log(`  note: ${label}: ${info.skipped}`);
    return info;
  }
  assert.ok(info.duration > 0, `${label}: plays ${info.duration} s`);
  assert.ok(info.width > 0 && info.height > 0, `${label}: no video stream (${JSON.stringify(info)})`);
  return info;
}

module.exports = { assertPlayableMp4, assertMp4Structure, ffprobeMissing, probe, topBoxes };
