'use strict';
const { pipeline } = require('node:stream');

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
};

// Sends a whole body. Under a breakStream fault the declared length is kept but only
// half the bytes go out before the socket dies, so clients see a truncated response.
function sendBuffer(ctx, status, buf, headers = {}) {
  const { res } = ctx;
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { ...CORS, 'Content-Length': buf.length, ...headers });
  if (ctx.method === 'HEAD') return res.end();
  if (ctx.breakStream) {
    res.write(buf.subarray(0, Math.floor(buf.length / 2)));
    setTimeout(() => res.destroy(), 5);
    return;
  }
  res.end(buf);
}

function sendJson(ctx, status, value, headers = {}) {
  const buf = Buffer.from(JSON.stringify(value));
  sendBuffer(ctx, status, buf, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
}

function sendText(ctx, status, text, headers = {}) {
  sendBuffer(ctx, status, Buffer.from(String(text)), { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
}

// Streams a Readable of known length; breakStream cuts it after half of it.
function sendStream(ctx, status, readable, length, headers = {}) {
  const { res } = ctx;
  res.writeHead(status, { ...CORS, 'Content-Length': length, ...headers });
  if (ctx.method === 'HEAD') {
    readable.destroy();
    return res.end();
  }
  if (ctx.breakStream) {
    let sent = 0;
    const limit = Math.floor(length / 2);
    readable.on('data', (chunk) => {
      const part = chunk.subarray(0, Math.max(0, limit - sent));
      sent += part.length;
      if (part.length) res.write(part);
      if (sent >= limit) {
        readable.destroy();
        res.destroy();
      }
    });
    return;
  }
  pipeline(readable, res, () => {});
}

function errorBody(err, style, reqId) {
  if (style === 'task') return { code: err.code || 'error', message: err.message, data: null };
  if (style === 'balance') return { success: false, message: err.message };
  return {
    error: {
      message: `${err.message} (request id: ${reqId})`,
      type: err.type || 'new_api_error',
      param: err.param || '',
      code: err.code || null,
    },
  };
}

function sendError(ctx, err, style) {
  sendJson(ctx, err.status, errorBody(err, err.style || style, ctx.reqId));
}

module.exports = { CORS, sendBuffer, sendJson, sendText, sendStream, sendError, errorBody };
