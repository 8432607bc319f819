'use strict';
// n8n-core writes its settings under N8N_USER_FOLDER at first use: keep tests out of $HOME.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'uag-n8n-'));
}
process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS = 'false';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
// The node logs every created task id at info level (its trail after Stop); tests and the bench read
// those lines through a captured logger, not on the console.
process.env.N8N_LOG_LEVEL ??= 'warn';
