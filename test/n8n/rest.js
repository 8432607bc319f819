'use strict';
// n8n's own REST API (the one the editor uses): owner account, login, JSON calls with the cookie.

const OWNER = {
	email: 'e2e-owner@example.com',
	firstName: 'E2e',
	lastName: 'Owner',
	// n8n wants 8+ characters with a number and an upper-case letter.
	password: 'E2eOwner-Passw0rd',
};

/** The `n8n-auth` cookie value of a response, or undefined. */
function authCookieOf(res) {
	const list = typeof res.headers.getSetCookie === 'function' ? res.headers.getSetCookie() : [res.headers.get('set-cookie') || ''];
	for (const c of list) {
		const m = /(?:^|\s)n8n-auth=([^;]+)/.exec(c);
		if (m) return m[1];
	}
	return undefined;
}

/**
 * fetch, and for a request that changes nothing (GET, HEAD, OPTIONS) up to two more tries when no
 * answer came at all: a busy n8n closes an idle kept-alive connection just as the next request goes
 * out on it (undici: "fetch failed", "other side closed"). Reads the body: resolves with
 * { res, text }. Throws with what broke (fetch itself says only "fetch failed"); error.network.
 */
async function fetchText(url, options = {}) {
	const method = (options.method || 'GET').toUpperCase();
	const tries = ['GET', 'HEAD', 'OPTIONS'].includes(method) ? 3 : 1;
	for (let attempt = 1; ; attempt++) {
		try {
			const res = await fetch(url, options);
			return { res, text: await res.text() };
		} catch (error) {
			if (attempt < tries) {
				await new Promise((resolve) => setTimeout(resolve, 1000));
				continue;
			}
			const cause = error.cause ? ` (${error.cause.code || error.cause.message})` : '';
			throw Object.assign(new Error(`${method} ${url}: ${error.message}${cause}${tries > 1 ? `, ${tries} tries` : ''}`), { network: true });
		}
	}
}

/** A JSON call; returns { res, json } (json unwrapped from `data`); throws on a non-2xx answer (error.network: no answer at all). */
async function restJson(baseUrl, method, route, body, cookie) {
	const { res, text } = await fetchText(`${baseUrl}${route}`, {
		method,
		headers: { 'content-type': 'application/json', ...(cookie ? { cookie: `n8n-auth=${cookie}` } : {}) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	if (!res.ok || json === undefined) throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 400)}`);
	return { res, json: json && 'data' in json ? json.data : json };
}

/** Logs in as the owner that exists already (e.g. after a restart); returns { cookie, user }. */
async function login(baseUrl, owner = OWNER) {
	const { res, json } = await restJson(baseUrl, 'POST', '/rest/login', { emailOrLdapLoginId: owner.email, password: owner.password });
	const cookie = authCookieOf(res);
	if (!cookie) throw new Error('POST /rest/login set no n8n-auth cookie');
	return { cookie, user: json };
}

/**
 * Creates the owner (POST /rest/owner/setup) and logs in; returns { cookie, user }. n8n 1.123 has
 * once answered the setup 200 and the login right after it 401 (CI, a loaded machine: its start-up
 * still settling the owner): a 401 then means "not yet", so the setup (if n8n asks for it again)
 * and the login are tried again for up to 15 s before the 401 is reported.
 */
async function setupOwnerAndLogin(baseUrl, owner = OWNER) {
	const until = Date.now() + 15_000;
	for (;;) {
		try {
			await restJson(baseUrl, 'POST', '/rest/owner/setup', owner);
		} catch (error) {
			// Set up already (by the try before): log in.
			if (!/answered 400/.test(error.message)) throw error;
		}
		try {
			return await login(baseUrl, owner);
		} catch (error) {
			if (!/answered 401/.test(error.message) || Date.now() > until) throw error;
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	}
}

/** A webhook to wait for: 'path', or { path, method } (default POST); a probe's old `body` is not needed. */
const hookOf = (hook) => (typeof hook === 'string' ? { path: hook, method: 'POST' } : { path: hook.path, method: (hook.method || 'POST').toUpperCase() });

/** The webhooks ({ path, method }) of a workflow's Webhook nodes: what a call after its publish needs. */
function webhooksOf(workflow) {
	return (workflow.nodes || [])
		.filter((node) => node.type === 'n8n-nodes-base.webhook' && !node.disabled && node.parameters?.path)
		.map((node) => ({ path: node.parameters.path, method: node.parameters.httpMethod || 'GET' }));
}

/** The methods n8n has registered for a webhook path, asked without running anything (see waitForWebhooks). */
async function registeredMethods(baseUrl, path) {
	const res = await fetch(`${baseUrl}/webhook/${path}`, { method: 'OPTIONS', headers: { origin: baseUrl } });
	await res.arrayBuffer();
	const allowed = res.headers.get('access-control-allow-methods');
	return { status: res.status, methods: allowed ? allowed.split(',').map((m) => m.trim().toUpperCase()).filter((m) => m && m !== 'OPTIONS') : [] };
}

/**
 * n8n says it is ready, and a publish returns, before it has registered the webhooks of a published
 * workflow: a call then gets 404 `The requested webhook "POST …" is not registered`. Waits until n8n
 * has each one, asked the harmless way: OPTIONS /webhook/<path> with an Origin header is n8n's CORS
 * pre-flight (both lines), answered 204 with Access-Control-Allow-Methods read from the webhooks it
 * has registered (the same table a call is looked up in), running no workflow. Polls every 250 ms;
 * throws naming the webhook when it is not there within timeoutMs.
 * hooks: ['path' | { path, method = 'POST' }]
 */
async function waitForWebhooks(baseUrl, hooks, timeoutMs = Number(process.env.E2E_WEBHOOK_WAIT_MS) || 120_000) {
	const started = Date.now();
	for (const { path: hook, method } of hooks.map(hookOf)) {
		for (let last; ; ) {
			last = await registeredMethods(baseUrl, hook).catch((error) => ({ status: `no answer (${error.cause?.code || error.message})`, methods: [] }));
			if (last.methods.includes(method)) break;
			if (Date.now() - started > timeoutMs) {
				const seen = last.methods.length ? `only ${last.methods.join(', ')}` : 'none';
				throw new Error(`n8n did not register the webhook "${method} ${hook}" within ${Math.round(timeoutMs / 1000)} s of being asked (OPTIONS /webhook/${hook} answered ${last.status}, methods registered there: ${seen})`);
			}
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}
	return Date.now() - started;
}

/**
 * Publishes (activates) an imported workflow as the editor does (POST /rest/workflows/<id>/activate
 * with its version, both lines), then waits until n8n has its webhooks. api: { baseUrl, cookie }.
 */
async function publishWorkflow(api, id) {
	const { json: workflow } = await restJson(api.baseUrl, 'GET', `/rest/workflows/${id}`, undefined, api.cookie);
	await restJson(api.baseUrl, 'POST', `/rest/workflows/${id}/activate`, { versionId: workflow.versionId }, api.cookie);
	await waitForWebhooks(api.baseUrl, webhooksOf(workflow));
	return workflow;
}

module.exports = { OWNER, publishWorkflow, fetchText, authCookieOf, restJson, login, setupOwnerAndLogin, registeredMethods, waitForWebhooks, webhooksOf };
