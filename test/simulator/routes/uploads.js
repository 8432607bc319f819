'use strict';
// POST /v1/uploads/images (docs/gateway-contract.md §4.11): multipart field `file`, judged by magic bytes.
const path = require('node:path');
const { sendJson } = require('../respond');
const { badRequest, HttpError } = require('../errors');
const { detectImageType, EXTENSIONS } = require('../image-type');
const { randomAlnum, unixSeconds } = require('../ids');

const MAX_UPLOAD = 20 * 1024 * 1024;

function multipartParts(ctx, what) {
  if (ctx.bodyKind !== 'multipart') throw badRequest(`${what} requires Content-Type multipart/form-data`);
  if (ctx.multipartError) throw badRequest(`Malformed multipart body: ${ctx.multipartError}`);
  return ctx.parts;
}

function tooLarge(field) {
  return new HttpError(413, `${field} is too large: the maximum size is 20 MB`, { code: 'file_too_large', param: field, type: 'invalid_request_error' });
}

function upload(ctx) {
  const parts = multipartParts(ctx, '/v1/uploads/images');
  const file = parts.find((p) => p.name === 'file');
  if (!file) throw badRequest('file is required (multipart field "file")', 'file');
  if (file.filename === undefined) throw badRequest('file must be a file part, not a text field', 'file');
  if (file.data.length > MAX_UPLOAD) throw tooLarge('file');
  const contentType = detectImageType(file.data);
  if (!contentType) throw badRequest('Uploaded file must be an image (JPEG, PNG, WebP or GIF)', 'file');
  const filename = path.basename(file.filename || '') || `upload.${EXTENSIONS[contentType]}`;
  const id = randomAlnum(16);
  ctx.sim.uploads.set(id, { filename, contentType, data: Buffer.from(file.data) });
  sendJson(ctx, 200, {
    url: `${ctx.sim.urls.files}/uploads/${id}/${encodeURIComponent(filename)}`,
    filename,
    content_type: contentType,
    bytes: file.data.length,
    created_at: unixSeconds(),
  });
}

module.exports = [{ method: 'POST', path: '/v1/uploads/images', handler: upload }];
module.exports.MAX_UPLOAD = MAX_UPLOAD;
module.exports.multipartParts = multipartParts;
module.exports.tooLarge = tooLarge;
