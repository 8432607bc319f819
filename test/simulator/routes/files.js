'use strict';
// The files origin: result images, result videos and uploaded files. No auth, but
// server.js still records whether an Authorization header leaked here.
const { Readable } = require('node:stream');
const { sendBuffer, sendStream, sendJson } = require('../respond');
const { pictureFor } = require('../pictures');
const { smallMp4, bigMp4Stream, orientationOf } = require('../mp4');

const MAX_BIG = 64 * 1024 ** 3;
const BIG = /^big-(\d+)(?:-[\w.-]+)?\.mp4$/;

// { length, open(): Readable } for a video file name, or null. The task's size or aspect ratio
// picks the landscape or portrait clip.
function videoSource(name, sim) {
  const big = BIG.exec(name);
  if (big) {
    const length = Number(big[1]);
    if (!Number.isSafeInteger(length) || length > MAX_BIG) return null;
    return { length, open: () => bigMp4Stream(length) };
  }
  if (!/^[\w.%-]+\.mp4$/.test(name)) return null;
  const task = sim && sim.tasks.get(name.slice(0, -'.mp4'.length));
  const buf = smallMp4(name, orientationOf(task && task.params));
  return { length: buf.length, open: () => Readable.from([buf]) };
}

const disposition = (name) => `inline; filename="${name.replace(/["\\\r\n]/g, '_')}"`;

function notFound(ctx) {
  sendJson(ctx, 404, { error: { message: `File not found: ${ctx.path}`, type: 'not_found', param: '', code: 'file_not_found' } });
}

function png(ctx) {
  const name = ctx.params.name;
  sendBuffer(ctx, 200, pictureFor(ctx.sim, name), { 'Content-Type': 'image/png', 'Content-Disposition': disposition(`${name}.png`), 'Cache-Control': 'no-store' });
}

function mp4(ctx) {
  const name = `${ctx.params.name}.mp4`;
  const src = videoSource(name, ctx.sim);
  if (!src) return notFound(ctx);
  sendStream(ctx, 200, src.open(), src.length, { 'Content-Type': 'video/mp4', 'Content-Disposition': disposition(name), 'Accept-Ranges': 'none' });
}

/** A one-page PDF whose text names the file: a brief a workflow fetches and a chat model is asked about. */
function pdfFor(name) {
  const text = `Brief: ${name.replace(/[^\w .-]/g, ' ')}`;
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) out += `${String(at).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

function pdf(ctx) {
  const name = `${ctx.params.name}.pdf`;
  sendBuffer(ctx, 200, pdfFor(ctx.params.name), { 'Content-Type': 'application/pdf', 'Content-Disposition': disposition(name) });
}

// A song (routes/suno.js): 38 MPEG-1 Layer III frames of silence, as the speech route's MP3, with
// the file's name after them so that every song has its own bytes; a name no task made is a 404.
const MP3_FRAME = Buffer.concat([Buffer.from('fffb9064', 'hex'), Buffer.alloc(413)]);
function mp3(ctx) {
  const name = `${ctx.params.name}.mp3`;
  // Only a song some task made: any other name is a missing file.
  if (![...ctx.sim.tasks.values()].some((task) => task.clips && task.clips.includes(ctx.params.name))) return notFound(ctx);
  const bytes = Buffer.concat([...Array.from({ length: 38 }, () => MP3_FRAME), Buffer.from(name, 'latin1')]);
  sendBuffer(ctx, 200, bytes, { 'Content-Type': 'audio/mpeg', 'Content-Disposition': disposition(name) });
}

function uploaded(ctx) {
  const file = ctx.sim.uploads.get(ctx.params.id);
  if (!file) return notFound(ctx);
  sendBuffer(ctx, 200, file.data, { 'Content-Type': file.contentType, 'Content-Disposition': disposition(file.filename) });
}

const routes = [];
for (const method of ['GET', 'HEAD']) {
  routes.push(
    { method, path: /^\/files\/(?<name>[\w.%-]+)\.png$/, auth: false, handler: png },
    { method, path: /^\/files\/(?<name>[\w.%-]+)\.mp4$/, auth: false, handler: mp4 },
    { method, path: /^\/files\/(?<name>[\w.%-]+)\.pdf$/, auth: false, handler: pdf },
    { method, path: /^\/files\/(?<name>[\w.%-]+)\.mp3$/, auth: false, handler: mp3 },
    { method, path: /^\/uploads\/(?<id>[A-Za-z0-9]+)\/[^/]+$/, auth: false, handler: uploaded },
  );
}

module.exports = routes;
module.exports.videoSource = videoSource;
module.exports.pdfFor = pdfFor;
