'use strict';
/*
 * The small workflows the screenshot scenes run: a Manual Trigger and our nodes after it, with
 * the gateway credential of the test's n8n.
 */

const TRIGGER = 'When clicking ‘Execute workflow’';

/**
 * A chain Manual Trigger → nodes[0] → nodes[1] …; each node { name, parameters, credential: bool }.
 * Returns the workflow object for env.createWorkflow.
 */
function chain(name, packageName, cred, nodes) {
	const all = [
		{ id: 'c0000000-0000-4000-8000-000000000000', name: TRIGGER, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		...nodes.map((n, i) => ({
			id: `c0000000-0000-4000-8000-00000000000${i + 1}`,
			name: n.name,
			type: `${packageName}.unifiedAiGateway`,
			typeVersion: 1,
			position: [260 * (i + 1), 0],
			parameters: n.parameters,
			credentials: { unifiedAiGatewayApi: { id: cred.id, name: cred.name } },
		})),
	];
	const connections = {};
	for (let i = 0; i + 1 < all.length; i++) connections[all[i].name] = { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] };
	return { name, nodes: all, connections, settings: { executionOrder: 'v1' } };
}

module.exports = { chain, TRIGGER };
