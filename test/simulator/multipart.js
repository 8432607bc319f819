'use strict';
const crypto = require('node:crypto');

function isMultipart(contentType) {
  return /^multipart\/form-data\b/i.test(contentType || '');
}

function boundaryOf(contentType) {
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType || '');
  return m ? m[1] || m[2] : null;
}

// `form-data; name="a"; filename="b.png"` -> { name: 'a', filename: 'b.png' }
function dispositionParams(value) {
  const params = {};
  const re = /;\s*([\w*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  let m;
  while ((m = re.exec(value))) {
    const key = m[1].toLowerCase();
    params[key] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3].trim();
  }
  if (params['filename*'] && !params.filename) {
    const star = /^[^']*'[^']*'(.*)$/.exec(params['filename*']);
    params.filename = decodeURIComponent(star ? star[1] : params['filename*']);
  }
  return params;
}

function parseHeaders(text) {
  const headers = {};
  for (const line of text.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

/**
 * Parses a buffered multipart/form-data body. Returns parts as
 * { name, filename?, contentType?, data: Buffer, value?: string }.
 * Throws Error with a readable message on malformed input.
 */
function parseMultipart(buf, contentType) {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw new Error('multipart/form-data without a boundary parameter');
  const delim = Buffer.from(`--${boundary}`);
  const next = Buffer.from(`\r\n--${boundary}`);
  let pos = buf.indexOf(delim);
  if (pos < 0) throw new Error('multipart boundary not found in body');
  const parts = [];
  for (;;) {
    pos += delim.length;
    if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) break; // closing "--"
    if (buf[pos] !== 0x0d || buf[pos + 1] !== 0x0a) throw new Error('malformed multipart delimiter');
    pos += 2;
    const headEnd = buf.indexOf('\r\n\r\n', pos);
    if (headEnd < 0) throw new Error('malformed multipart part headers');
    const headers = parseHeaders(buf.toString('utf8', pos, headEnd));
    const end = buf.indexOf(next, headEnd + 4);
    if (end < 0) throw new Error('multipart body is truncated (closing boundary missing)');
    const data = buf.subarray(headEnd + 4, end);
    const params = dispositionParams(headers['content-disposition'] || '');
    const part = { name: params.name || '', data };
    if (params.filename !== undefined) {
      part.filename = params.filename;
      part.contentType = headers['content-type'] || 'application/octet-stream';
    } else {
      part.value = data.toString('utf8');
    }
    parts.push(part);
    pos = end + 2;
  }
  return parts;
}

// What sim.requests keeps: metadata and a hash, never the bytes.
function describeParts(parts) {
  return parts.map((p) =>
    p.filename !== undefined
      ? {
          name: p.name,
          filename: p.filename,
          contentType: p.contentType,
          size: p.data.length,
          sha256: crypto.createHash('sha256').update(p.data).digest('hex'),
        }
      : { name: p.name, value: p.value },
  );
}

module.exports = { isMultipart, boundaryOf, parseMultipart, describeParts };
