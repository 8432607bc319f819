'use strict';
// n8n-core 2.x logs every node error to the console (n8n 1.x's core does not): the tests assert the errors themselves.
process.env.N8N_LOG_LEVEL ??= 'silent';
