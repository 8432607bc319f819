'use strict';
/*
 * n8n's REST API as the UI test uses it: the owner account and its login cookie (for the
 * browser), credentials and workflows created directly (the editor then opens them).
 */

const OWNER = {
	email: 'ui-test@example.com',
	firstName: 'Ui',
	lastName: 'Tester',
	// n8n wants 8+ characters with a number and an upper-case letter.
	password: 'UiTest-Passw0rd',
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

async function restJson(baseUrl, method, route, body, cookie) {
	const res = await fetch(`${baseUrl}${route}`, {
		method,
		headers: {
			'content-type': 'application/json',
			...(cookie ? { cookie: `n8n-auth=${cookie}` } : {}),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	if (!res.ok || json === undefined) {
		throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 400)}`);
	}
	return { res, json: json && 'data' in json ? json.data : json };
}

/**
 * Create the owner (POST /rest/owner/setup) and log in (POST /rest/login).
 * Returns { cookie, user }: cookie is the n8n-auth value. The login sends no
 * browser-id header, so the JWT is not tied to one browser.
 */
async function setupOwnerAndLogin(baseUrl, owner = OWNER) {
	await restJson(baseUrl, 'POST', '/rest/owner/setup', owner);
	const { res, json } = await restJson(baseUrl, 'POST', '/rest/login', {
		emailOrLdapLoginId: owner.email,
		password: owner.password,
	});
	const cookie = authCookieOf(res);
	if (!cookie) throw new Error('POST /rest/login set no n8n-auth cookie');
	return { cookie, user: json };
}

/** Replace {{NAME}} placeholders (NAME in vars, upper case) in workflow JSON text. */
function substitute(text, vars = {}) {
	return text.replace(/\{\{([A-Z][A-Z0-9_]*)\}\}/g, (all, key) =>
		Object.prototype.hasOwnProperty.call(vars, key) ? JSON.stringify(String(vars[key])).slice(1, -1) : all,
	);
}

/**
 * The logged-in owner's workspace: one gateway credential (made on first use, or the one the
 * editor test saved), workflows created from objects or files with that credential in our nodes.
 */
function workspace({ baseUrl, cookie, sim, apiKey, packageName }) {
	let credential;
	const ws = {
		async credential() {
			if (credential) return credential;
			const all = (await restJson(baseUrl, 'GET', '/rest/credentials', undefined, cookie)).json || [];
			credential = all.find((c) => c.type === 'unifiedAiGatewayApi');
			if (!credential) {
				const data = { baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey };
				credential = (await restJson(baseUrl, 'POST', '/rest/credentials', { name: 'Unified AI Gateway (ui)', type: 'unifiedAiGatewayApi', data }, cookie)).json;
			}
			return credential;
		},
		/** Create a workflow (name, nodes, connections, settings?, pinData?); returns its id. */
		async createWorkflow(wf) {
			const body = { name: wf.name, nodes: wf.nodes, connections: wf.connections || {}, settings: wf.settings || {}, pinData: wf.pinData || {}, active: false };
			const created = (await restJson(baseUrl, 'POST', '/rest/workflows', body, cookie)).json;
			if (!created || !created.id) throw new Error(`POST /rest/workflows returned no id for "${wf.name}"`);
			return created.id;
		},
		/** A workflow file (placeholders SIM_MAIN, SIM_ALT, SIM_FILES, CRED_ID, CRED_NAME) with our credential: { wf, id, ours, cred }. */
		async createWorkflowFromFile(file, vars = {}) {
			const cred = await ws.credential();
			const text = substitute(require('fs').readFileSync(file, 'utf8'), {
				SIM_MAIN: sim.mainUrl,
				SIM_ALT: sim.altUrl,
				SIM_FILES: sim.filesUrl,
				CRED_ID: cred.id,
				CRED_NAME: cred.name,
				...vars,
			});
			const wf = JSON.parse(text);
			const ours = wf.nodes.filter((n) => n.type.startsWith(`${packageName}.`));
			for (const n of ours) {
				if (n.credentials && n.credentials.unifiedAiGatewayApi) n.credentials.unifiedAiGatewayApi = { id: cred.id, name: cred.name };
			}
			return { wf, id: await ws.createWorkflow(wf), ours, cred };
		},
	};
	return ws;
}

module.exports = { OWNER, setupOwnerAndLogin, restJson, authCookieOf, substitute, workspace };
