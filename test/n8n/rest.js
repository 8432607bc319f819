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

/** Creates the owner (POST /rest/owner/setup) and logs in; returns { cookie, user }. */
async function setupOwnerAndLogin(baseUrl, owner = OWNER) {
	await restJson(baseUrl, 'POST', '/rest/owner/setup', owner);
	const { res, json } = await restJson(baseUrl, 'POST', '/rest/login', { emailOrLdapLoginId: owner.email, password: owner.password });
	const cookie = authCookieOf(res);
	if (!cookie) throw new Error('POST /rest/login set no n8n-auth cookie');
	return { cookie, user: json };
}

module.exports = { OWNER, authCookieOf, restJson, setupOwnerAndLogin };
