#!/usr/bin/env node
'use strict';
// `npm run simulator`: first stdout line is machine-readable JSON for runners.
const { startSimulator } = require('./index');

function envNumber(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    process.stderr.write(`${name} must be a non-negative number, got "${raw}"\n`);
    process.exit(2);
  }
  return n;
}

async function main() {
  const sim = await startSimulator({
    apiKey: process.env.SIM_API_KEY || undefined,
    host: process.env.SIM_HOST || undefined,
    port: envNumber('SIM_PORT', 0),
    altPort: envNumber('SIM_ALT_PORT', 0),
    filesPort: envNumber('SIM_FILES_PORT', 0),
    timeScale: envNumber('SIM_TIME_SCALE', 1),
    quiet: false,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const apiKey = process.env.SIM_API_KEY || 'sk-sim-good';
  process.stdout.write(`${JSON.stringify({ mainUrl: sim.mainUrl, altUrl: sim.altUrl, filesUrl: sim.filesUrl, apiKey })}\n`);
  process.stdout.write(
    'Gateway simulator running\n' +
      `  main   ${sim.mainUrl}  (base_url ${sim.mainUrl}/v1)\n` +
      `  alt    ${sim.altUrl}  (alt_base_url)\n` +
      `  files  ${sim.filesUrl}\n` +
      'Press Ctrl+C to stop.\n',
  );

  let stopping = false;
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: stopping simulator\n`);
    await sim.close();
    process.exit(0);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`simulator failed to start: ${err.message}\n`);
  process.exit(1);
});
