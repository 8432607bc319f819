'use strict';
/*
 * The UI test's n8n workspace, through n8n's REST API (test/n8n/rest.js): the gateway
 * credential and the workflows the editor then opens.
 */

const fs = require('fs');

const { restJson } = require('../n8n');

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
			const text = substitute(fs.readFileSync(file, 'utf8'), {
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

module.exports = { workspace, substitute };
