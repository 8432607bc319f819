'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { SimState } = require('./state');
const { createOriginServer } = require('./server');
const { normalizeFault } = require('./faults');
const { normalizeRedirect, normalizeRateLimit, normalizeOverload } = require('./gates');
const { taskState, relayView } = require('./tasks');
const routes = require('./routes');

const ORIGINS = ['main', 'alt', 'files'];

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address().port);
    });
  });
}

function closeServer(server) {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections(); // idle keep-alive sockets too, so test runners can exit
  });
}

function urlHost(host) {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function matcher(method, pathOrRegExp, origin) {
  const m = method && method !== '*' ? method.toUpperCase() : null;
  return (r) =>
    (!m || r.method === m) &&
    (!origin || r.origin === origin) &&
    (pathOrRegExp instanceof RegExp ? pathOrRegExp.test(r.path) : r.path === pathOrRegExp);
}

/** The committed self-signed certificate for localhost, 127.0.0.1 and ::1 (fixtures/tls/make-cert.sh). */
function fixtureTls() {
  const dir = path.join(__dirname, 'fixtures', 'tls');
  return { key: fs.readFileSync(path.join(dir, 'localhost-key.pem')), cert: fs.readFileSync(path.join(dir, 'localhost-cert.pem')) };
}

async function startSimulator(options = {}) {
  const { host = '127.0.0.1', port = 0, altPort = 0, filesPort = 0, https = false } = options;
  const sim = new SimState(options);
  // https: every origin (gateway and file host) over TLS with a self-signed certificate.
  const tls = https ? fixtureTls() : undefined;
  const scheme = https ? 'https' : 'http';
  const servers = Object.fromEntries(ORIGINS.map((o) => [o, createOriginServer(sim, o, routes[o], tls)]));
  const ports = { main: port, alt: altPort, files: filesPort };
  // TCP connections each origin accepted since reset(): whether a client reuses them (keep-alive).
  const connections = { main: 0, alt: 0, files: 0 };
  for (const o of ORIGINS) servers[o].on(tls ? 'secureConnection' : 'connection', () => connections[o]++);
  try {
    for (const o of ORIGINS) {
      const actual = await listen(servers[o], Number(ports[o]) || 0, host);
      sim.urls[o] = `${scheme}://${urlHost(host)}:${actual}`;
    }
  } catch (err) {
    await Promise.all(ORIGINS.map((o) => closeServer(servers[o])));
    throw err;
  }

  let closing = null;
  return {
    mainUrl: sim.urls.main,
    altUrl: sim.urls.alt,
    filesUrl: sim.urls.files,
    get requests() {
      return sim.requests;
    },
    /** The relay's consume log as GET /api/log/token serves it (prices.js logConsume), oldest first. */
    get usageLog() {
      return sim.usageLog;
    },
    count: (method, path, origin) => sim.requests.filter(matcher(method, path, origin)).length,
    find: (method, path, origin) => sim.requests.filter(matcher(method, path, origin)),
    reset: () => {
      sim.reset();
      for (const o of ORIGINS) connections[o] = 0;
    },
    /** TCP connections opened to an origin (all three when not given) since reset(). */
    connections: (origin) => (origin ? connections[origin] : ORIGINS.reduce((n, o) => n + connections[o], 0)),
    inject: (fault) => void sim.faults.push(normalizeFault(fault)),
    redirect: (rule) => void sim.redirects.push(normalizeRedirect(rule)),
    rateLimit: (rule) => {
      const limit = normalizeRateLimit(rule);
      sim.rateLimits.push(limit);
      return { get limited() { return limit.limited; }, get passed() { return limit.passed; } };
    },
    /**
     * new-api's performance guard for the next `calls` relay calls (gates.js): 503
     * system_<kind>_overloaded before the key is checked, nothing created or billed; replaces an earlier one.
     */
    overload: (calls = 1, kind = 'cpu') => {
      const overload = normalizeOverload(calls, kind);
      sim.overloaded = overload;
      return { get refused() { return overload.refused; }, get remaining() { return overload.remaining; } };
    },
    scenario: (model, opts) => sim.setScenario(model, opts),
    setBalance: (kind, values) => sim.setBalance(kind, values),
    setModels: (models) => sim.setModels(models),
    setProfile: (profile) => sim.setProfile(profile),
    get profile() {
      return sim.profile;
    },
    /** How task records are refreshed: 'live', or the relay's rounds (relay.js); reset() restores the start's. */
    setRefresh: (refresh) => sim.setRefresh(refresh),
    get refresh() {
      return { ...sim.refresh };
    },
    /** The relay's rounds so far (refresh 'relay'): { startedAt, endedAt, tasks }, oldest first. */
    relayRounds: (now = Date.now()) => {
      if (!sim.relay) return [];
      sim.relay.advance(now);
      return sim.relay.rounds.map((r) => ({ ...r }));
    },
    setSiteStatus: (values) => sim.setSiteStatus(values),
    setPricing: (entries, options) => sim.setPricing(entries, options),
    setKeyGroup: (group) => sim.setKeyGroup(group),
    setKeyState: (state, options) => sim.setKeyState(state, options),
    /** The key's and its user's quota now, in USD: what the billed calls took from it. */
    get balances() {
      return { token: { ...sim.balances.token }, user: { ...sim.balances.user } };
    },
    /** Every task created since reset(), oldest first: what the gateway billed as tasks. */
    taskIds: () => [...sim.tasks.keys()],
    /** Every result URL a synchronous image answer carried since reset(): what it billed without a task. */
    syncResults: () => [...sim.syncResults],
    task: (id) => {
      const t = sim.tasks.get(id);
      if (!t) return undefined;
      // urls are the planned result URLs; status/progress are computed for "now" (not counted as a
      // read), the provider's own; answers are what each read of it answered, in order. Behind the
      // relay's rounds, `relay` says when its record was refreshed and when its end became visible.
      const { status, progress, startedAt, finishedAt } = taskState(t);
      const relay = relayView(t);
      const answers = t.answers.map((a) => ({ ...a }));
      return {
        ...t, scenario: { ...t.scenario }, params: { ...t.params }, urls: [...t.urls], answers,
        status, progress, startedAt, finishedAt, ...(relay ? { relay } : {}),
      };
    },
    close: () => {
      closing ||= (async () => {
        sim.clearTimers();
        await Promise.all(ORIGINS.map((o) => closeServer(servers[o])));
      })();
      return closing;
    },
  };
}

module.exports = { startSimulator };
