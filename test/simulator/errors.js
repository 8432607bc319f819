'use strict';
// Route handlers throw these; server.js turns them into the body style of the route
// (OpenAI `{error:{...}}`, flat task `{code,message,data}` or balance `{success,message}`).
class HttpError extends Error {
  constructor(status, message, { code, param = '', type, style } = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.param = param;
    this.type = type;
    this.style = style; // forces a body style regardless of the route's default
  }
}

const badRequest = (message, param = '', code = 'invalid_request') =>
  new HttpError(400, message, { code, param, type: 'invalid_request_error' });

// A relay answers 503 from its channel distributor, always in OpenAI style.
const noChannel = (model) =>
  new HttpError(503, `No available channel for model ${model} under group default`, {
    code: 'model_not_found',
    type: 'new_api_error',
    style: 'openai',
  });

const taskNotExist = () =>
  new HttpError(400, 'task_not_exist', { code: 'task_not_exist', style: 'task' });

module.exports = { HttpError, badRequest, noChannel, taskNotExist };
