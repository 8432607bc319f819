'use strict';
/*
 * Which gateway build the simulator plays (startSimulator({ profile }), sim.setProfile()), as the
 * relay's source has them (docs/gateway-contract.md §10.11):
 *   commercial   — today's gateway of the document: /v1/balance, /v1/tasks, uploads, image tasks;
 *                  none of the relay's /api/* or billing routes, unless a test sets a price list
 *                  (sim.setPricing), which then serves /api/pricing and /api/status too;
 *   plainNewApi  — the open-source new-api without the commercial extensions: no balance routes,
 *                  no /v1/tasks, no uploads; the unified video submit answers the OpenAI video
 *                  object and its tasks are read at /v1/video/generations/{id} (a task record with
 *                  its settled `quota`); /api/status, /api/pricing, /api/usage/token/ (20 reads per
 *                  20 minutes per IP) and the billing routes;
 *   oneApi       — one-api: as plain, but no video routes at all, no /api/pricing, no
 *                  /api/usage/token/; its /api/status and billing routes in one-api's shapes.
 * A route a build lacks answers as the relay's NoRoute does: 404 `Invalid URL (GET /path)`.
 */

const PROFILES = ['commercial', 'plainNewApi', 'oneApi'];

const BALANCE = /^\/(v1\/)?(user\/)?balance$/;
const RELAY_MONEY = /^\/(api\/(status|pricing|usage\/token\/)|(v1\/)?dashboard\/billing\/(subscription|usage))$/;
const TASKS = /^\/v1\/tasks\//;
const UPLOADS = /^\/v1\/uploads\//;
const VIDEO = /^\/v1\/(video\/generations|videos)(\/|$)/;

/** Whether the build of `profile` lacks this route (the main origin only). */
function lacks(sim, origin, path) {
  if (origin !== 'main') return false;
  switch (sim.profile) {
    case 'plainNewApi':
      return BALANCE.test(path) || TASKS.test(path) || UPLOADS.test(path);
    case 'oneApi':
      return BALANCE.test(path) || TASKS.test(path) || UPLOADS.test(path) || VIDEO.test(path) ||
        path === '/api/pricing' || path === '/api/usage/token/' || path === '/api/log/token';
    default:
      // The commercial build of the document serves the relay's money routes only once a test gives prices.
      return (RELAY_MONEY.test(path) && !sim.pricing.served) || path === '/api/log/token';
  }
}

module.exports = { PROFILES, lacks };
