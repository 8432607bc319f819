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

/** A JSON call; returns { res, json } (json unwrapped from `data`); throws on a non-2xx answer. */
async function restJson(baseUrl, method, route, body, cookie) {
	const res = await fetch(`${baseUrl}${route}`, {
		method,
		headers: { 'content-type': 'application/json', ...(cookie ? { cookie: `n8n-auth=${cookie}` } : {}) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
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

/**
 * n8n says it is ready before the webhooks of its published workflows are registered: post a probe
 * (a body that makes no items) to each path until n8n takes it. probes: [{ path, body }]
 */
async function waitForWebhooks(baseUrl, probes, timeoutMs = 90_000) {
	const until = Date.now() + timeoutMs;
	for (const { path: hook, body } of probes) {
		for (;;) {
			const res = await fetch(`${baseUrl}/webhook/${hook}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
			if (res.ok) break;
			if (res.status !== 404 || Date.now() > until) throw new Error(`webhook ${hook} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}
}

module.exports = { OWNER, authCookieOf, restJson, login, setupOwnerAndLogin, waitForWebhooks };
