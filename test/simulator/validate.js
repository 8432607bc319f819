'use strict';
// Field checks shared by the routes. Each throws a 400 HttpError naming the field.
const { badRequest } = require('./errors');

const present = (v) => v !== undefined && v !== null;
const list = (values) => values.map((v) => JSON.stringify(v)).join(', ');

// The parsed JSON object of the request, or a 400 explaining what arrived instead.
function jsonBody(ctx, hint = '') {
  if (ctx.bodyKind === 'multipart') {
    throw badRequest(`Request body must be JSON (Content-Type: application/json), got multipart/form-data.${hint}`);
  }
  if (ctx.bodyKind === 'empty') throw badRequest('Request body is empty; a JSON object is required');
  if (!/\bjson\b/i.test(ctx.headers['content-type'] || '')) {
    throw badRequest(`Content-Type must be application/json.${hint}`);
  }
  if (ctx.bodyKind !== 'json') throw badRequest('Request body is not valid JSON');
  if (typeof ctx.json !== 'object' || Array.isArray(ctx.json) || ctx.json === null) {
    throw badRequest('Request body must be a JSON object');
  }
  return ctx.json;
}

function requireString(body, field) {
  const v = body[field];
  if (typeof v !== 'string' || v.trim() === '') throw badRequest(`${field} is required and must be a non-empty string`, field);
  return v;
}

function optionalString(body, field) {
  const v = body[field];
  if (present(v) && typeof v !== 'string') throw badRequest(`${field} must be a string`, field);
  return v;
}

function optionalEnum(body, field, allowed) {
  const v = body[field];
  if (present(v) && !allowed.includes(v)) {
    throw badRequest(`invalid ${field} ${JSON.stringify(v)}: allowed values are ${list(allowed)}`, field);
  }
  return v;
}

function optionalInt(body, field, min, max) {
  const v = body[field];
  if (present(v) && (!Number.isInteger(v) || v < min || v > max)) {
    throw badRequest(`${field} must be an integer from ${min} to ${max}`, field);
  }
  return v;
}

const isHttpUrl = (s) => typeof s === 'string' && /^https?:\/\/[^\s/]+/i.test(s);

function urlArray(body, field, { min = 1, max = Infinity, required = true } = {}) {
  const v = body[field];
  if (!present(v) && !required) return undefined;
  if (!Array.isArray(v)) throw badRequest(`${field} is required and must be an array of image URLs`, field);
  if (v.length < min || v.length > max) {
    const range = max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    throw badRequest(`${field} must hold ${range} URLs (got ${v.length})`, field);
  }
  v.forEach((u, i) => {
    if (!isHttpUrl(u)) throw badRequest(`${field}[${i}] must be a public http(s) URL; base64 data and local files are not accepted`, field);
  });
  return v;
}

module.exports = { present, jsonBody, requireString, optionalString, optionalEnum, optionalInt, urlArray, isHttpUrl };
