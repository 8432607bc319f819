'use strict';
// Runs our built nodes through n8n-core's real execution engine (WorkflowExecute,
// ExecuteContext, httpRequestWithAuthentication, binary-data helpers, cancel signal) against
// the simulator on loopback. Only what lives in n8n's CLI package (credential storage and the
// credential test runner) is re-created here, following n8n's own code.
require('./env');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Container } = require('@n8n/di');
const core = require('n8n-core');
const { SSHClientsManager } = require('n8n-core/dist/execution-engine/ssh-clients-manager');
const wf = require('n8n-workflow');
const { assertOutputMatchesSchema } = require('../schemas');

const DIST = path.resolve(__dirname, '../../dist');
// The database binary store's file ids, from the tests' seed (test/seed.js).
const fileIds = require('../seed').seededRandom('harness file ids');
const CREDENTIAL_TYPE = 'unifiedAiGatewayApi';
const PACKAGE = 'n8n-nodes-unified-ai-gateway';
/** n8n's limit for a hint (its community lint's hint-max-length), as the node holds it. */
const { MAX_HINT_LENGTH } = require(path.join(DIST, 'nodes/UnifiedAiGateway/engine/hints.js'));

const NODE_FILES = {
	unifiedAiGateway: 'nodes/UnifiedAiGateway/UnifiedAiGateway.node.js',
	unifiedAiGatewayTrigger: 'nodes/UnifiedAiGatewayTrigger/UnifiedAiGatewayTrigger.node.js',
	unifiedAiGatewayChatModel: 'nodes/UnifiedAiGatewayChatModel/UnifiedAiGatewayChatModel.node.js',
};

/**
 * n8n generates `<node>Tool` from `usableAsTool` (its node loader, not n8n-workflow): the same class
 * under the tool's type name, which is how a tool call looks to the node on both lines.
 */
function loadNode(name) {
	if (name.endsWith('Tool') && NODE_FILES[name.slice(0, -4)]) {
		const base = loadNode(name.slice(0, -4));
		const tool = Object.create(base);
		tool.description = { ...base.description, name, displayName: `${base.description.displayName} Tool` };
		return tool;
	}
	const file = path.join(DIST, NODE_FILES[name]);
	const exports = require(file);
	const Klass = Object.values(exports)[0];
	return new Klass();
}

function loadCredentialType() {
	const { UnifiedAiGatewayApi } = require(path.join(DIST, 'credentials/UnifiedAiGatewayApi.credentials.js'));
	return new UnifiedAiGatewayApi();
}

class NodeTypes {
	constructor() {
		this.cache = {};
	}
	getByName(type) {
		const short = type.replace(`${PACKAGE}.`, '');
		this.cache[short] ??= loadNode(short);
		return this.cache[short];
	}
	getByNameAndVersion(type, version) {
		return wf.NodeHelpers.getVersionedNodeType(this.getByName(type), version);
	}
	getKnownTypes() {
		return {};
	}
}

/** n8n CLI's CredentialsHelper, reduced to what a generic (expression-based) credential needs. */
class CredentialsHelper extends wf.ICredentialsHelper {
	constructor(credentials) {
		super();
		this.credentials = credentials;
		this.type = loadCredentialType();
	}
	getParentTypes() {
		return [];
	}
	/** n8n 2.x asks this before a node reads a credential; ours does not restrict its nodes. */
	isCredentialUsableByNode() {
		return true;
	}
	async authenticate(credentials, typeName, requestOptions, workflow, node) {
		const auth = this.type.authenticate;
		if (typeof auth === 'function') return await auth(credentials, requestOptions);
		const options = { ...requestOptions, headers: { ...(requestOptions.headers ?? {}) } };
		for (const [key, value] of Object.entries(auth.properties.headers ?? {})) {
			options.headers[key] = resolve(value, credentials, workflow, node);
		}
		return options;
	}
	async preAuthentication() {
		return undefined;
	}
	/** n8n's credential load (from its database, decrypted): counted, as each one costs a query. */
	async getDecrypted() {
		this.reads = (this.reads ?? 0) + 1;
		return { ...this.credentials };
	}
	async getCredentials() {
		return new core.Credentials({ id: 'cred', name: 'Gateway' }, CREDENTIAL_TYPE, '');
	}
	async updateCredentials() {}
	async updateCredentialsOauthTokenData() {}
	getCredentialsProperties() {
		return this.type.properties;
	}
}

function resolve(value, credentials, workflow, node) {
	if (typeof value !== 'string' || !value.startsWith('=')) return value;
	return workflow.expression.getParameterValue(
		value, null, 0, 0, node.name, [], 'internal', { $credentials: credentials }, undefined, false, credentials,
	);
}

let binaryService;
let binaryRoot;

/**
 * Binary data as n8n stores it: in memory ('default'), on disk ('filesystem') or in n8n's database
 * ('database': n8n's DatabaseManager lives in n8n's CLI package, so it is re-created below).
 */
async function useBinaryMode(mode) {
	// In the test file's own folder (env.js), removed with it.
	binaryRoot ??= fs.mkdtempSync(path.join(process.env.UAG_TEST_DIR ?? os.tmpdir(), 'uag-binary-'));
	const logger = { debug() {}, info() {}, warn() {}, error() {}, scoped: () => logger };
	const errorReporter = { error() {}, warn() {}, info() {} };
	const config = { mode, availableModes: ['filesystem', 'database'], localStoragePath: binaryRoot, signingSecret: 'test', dbMaxFileSize: 512 };
	// n8n-core's SSH client manager keeps a 60 s cleanup interval; it must not hold the test process open.
	Container.get(SSHClientsManager).cleanupTimer?.unref?.();
	binaryService = new core.BinaryDataService(config, errorReporter, logger);
	await binaryService.init();
	// n8n's CLI sets the database manager on the service this way (commands/base-command.ts initBinaryDataService).
	binaryService.setManager('database', new DatabaseManager(config));
	Container.set(core.BinaryDataService, binaryService);
	return binaryService;
}

/**
 * n8n's database binary store (packages/cli/src/binary-data/database.manager.ts of both lines) as
 * far as a node meets it: the whole file gathered into one buffer, refused past dbMaxFileSize
 * with n8n-core's FileTooLargeError, ids `database:<uuid>`. Rows live in a Map instead of a table.
 */
class DatabaseManager {
	constructor(config) {
		this.config = config;
		this.rows = new Map();
	}
	async init() {}
	async store(location, bufferOrStream, metadata) {
		const buffer = Buffer.isBuffer(bufferOrStream) ? bufferOrStream : await streamToBuffer(bufferOrStream);
		const fileId = fileIds.uuid();
		const fileSizeMb = buffer.length / (1024 * 1024);
		if (fileSizeMb > this.config.dbMaxFileSize) {
			throw new core.FileTooLargeError({ fileSizeMb, maxFileSizeMb: this.config.dbMaxFileSize, fileId, fileName: metadata.fileName });
		}
		this.rows.set(fileId, { data: buffer, ...metadata, fileSize: buffer.length });
		return { fileId, fileSize: buffer.length };
	}
	getPath(fileId) {
		return `database://${fileId}`;
	}
	async getAsBuffer(fileId) {
		return this.rows.get(fileId).data;
	}
	async getAsStream(fileId) {
		return require('node:stream').Readable.from(this.rows.get(fileId).data);
	}
	async getMetadata(fileId) {
		const { fileName, mimeType, fileSize } = this.rows.get(fileId);
		return { fileName, mimeType, fileSize };
	}
	async deleteMany() {}
	async deleteManyByFileId() {}
}

async function streamToBuffer(stream) {
	const chunks = [];
	for await (const chunk of stream) chunks.push(chunk);
	return Buffer.concat(chunks);
}

/**
 * The error Node's fs gives n8n's store when its disk is full, its folder is not writable, or its
 * file system is read-only: n8n passes it on as is. A write error names no path; an open error does.
 */
function storageError(code, filePath) {
	const words = { ENOSPC: ['no space left on device', 'write', -28], EACCES: ['permission denied', 'open', -13], EROFS: ['read-only file system', 'open', -30] }[code];
	if (!words) throw new Error(`binaryFault: unknown code ${code} (ENOSPC, EACCES, EROFS)`);
	const [text, syscall, errno] = words;
	const opens = syscall === 'open';
	return Object.assign(new Error(`${code}: ${text}, ${syscall}${opens ? ` '${filePath}'` : ''}`), { errno, code, syscall, ...(opens ? { path: filePath } : {}) });
}

/**
 * The current mode's store fails as a disk does: `binaryFault` = { code, afterBytes } (a write
 * error after that many bytes of the file, as a disk that fills mid-file; an open error at once).
 * Returns the undo.
 */
function injectStorageFault({ code, afterBytes = 64 * 1024 }) {
	const key = binaryService.mode;
	const original = binaryService.managers[key];
	if (!original) throw new Error(`binaryFault: the binary mode '${key}' has no store to fail (use 'filesystem' or 'database')`);
	const faulty = Object.create(original);
	faulty.store = async (location, bufferOrStream) => {
		const filePath = path.join(binaryRoot, 'workflows', String(location.workflowId), 'executions', String(location.executionId), 'binary_data', 'file');
		if (code === 'ENOSPC' && !Buffer.isBuffer(bufferOrStream)) {
			let taken = 0;
			for await (const chunk of bufferOrStream) {
				taken += chunk.length;
				if (taken >= afterBytes) break;
			}
		}
		throw storageError(code, filePath);
	};
	binaryService.managers[key] = faulty;
	return () => {
		binaryService.managers[key] = original;
	};
}

function makeAdditionalData(credentials, workflowId, executionId = 'exec-1') {
	const hooks = new core.ExecutionLifecycleHooks('manual', executionId, { id: workflowId, nodes: [], connections: {} });
	return {
		credentialsHelper: new CredentialsHelper(credentials),
		hooks,
		executionId,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		userId: 'user-1',
		variables: {},
		setExecutionStatus() {},
		async executeWorkflow() {
			throw new Error('not available in tests');
		},
		async getRunExecutionData() {
			return undefined;
		},
		logAiEvent() {},
		startRunnerTask: async () => {
			throw new Error('not available in tests');
		},
	};
}

/*
 * Every run gets a credential id of its own unless a test names one (`credentialId`): the node keeps
 * some free answers (the gateway's price list, its quota unit) a minute across runs of one credential,
 * so two tests never see each other's; a test of that keeping gives its runs the same id.
 */
let credentialRuns = 0;
const runCredentialId = (credentialId) => credentialId ?? `cred-${++credentialRuns}`;

function makeWorkflow(nodeName, type, parameters, staticData, workflowId = 'wf-test', settings = {}, credentialId) {
	const node = {
		id: 'node-1',
		name: 'Gateway',
		type: `${PACKAGE}.${nodeName}`,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: runCredentialId(credentialId), name: 'Gateway' } },
		...type,
	};
	const workflow = new wf.Workflow({
		id: workflowId,
		name: 'test',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new NodeTypes(),
		staticData,
		settings: { executionOrder: 'v1', ...settings },
	});
	return { workflow, node: workflow.getNode('Gateway') };
}

/**
 * Runs one node of ours over `items` through WorkflowExecute, as n8n runs a node in a
 * workflow. `stopAfterMs` presses Stop (cancels the execution) after that many ms. `onError` is the node's
 * On Error setting; with 'continueErrorOutput' the items n8n routes to the error output are in `errorItems`.
 * `nodeSettings`: the node's other settings (retryOnFail, maxTries, waitBetweenTries: n8n-core's own retry
 * loop then runs the node again). `executionTimeoutS`: the workflow's Timeout Workflow, as n8n's
 * WorkflowRunner applies it (settings.executionTimeout, additionalData.executionTimeoutTimestamp, and
 * the execution cancelled when it passes). `executionId`: executions of one process are told apart by it.
 * Sub-workflow executions the node starts (`executeWorkflow`: receipt executions) are recorded in
 * `subExecutions` ({ workflow, items, parentExecution, parentWorkflowId, at }) and answer as n8n does;
 * `subWorkflows: 'fail'` makes them fail (an n8n that refuses them). `instanceBaseUrl`: what
 * getInstanceBaseUrl() gives (default http://127.0.0.1:5678/).
 * `binaryMode`: where n8n keeps binaries ('default' = memory, 'filesystem', 'database'); `binaryFault`:
 * { code: 'ENOSPC' | 'EACCES' | 'EROFS', afterBytes }: n8n's store fails as a full or read-only disk does.
 */
async function runNode({
	node = 'unifiedAiGateway',
	parameters,
	credentials,
	items = [{ json: {} }],
	continueOnFail = false,
	onError = continueOnFail ? 'continueRegularOutput' : undefined,
	binaryMode = 'default',
	binaryFault,
	stopAfterMs,
	nodeSettings = {},
	executionTimeoutS,
	executionId = 'exec-1',
	subWorkflows = 'record',
	instanceBaseUrl,
	credentialId,
}) {
	if (!binaryService || binaryService.mode !== (binaryMode === 'filesystem' ? 'filesystem-v2' : binaryMode)) {
		await useBinaryMode(binaryMode);
	}
	const undoFault = binaryFault ? injectStorageFault(binaryFault) : undefined;
	try {
		return await runNodeIn({ node, parameters, credentials, items, onError, stopAfterMs, nodeSettings, executionTimeoutS, executionId, subWorkflows, instanceBaseUrl, credentialId });
	} finally {
		undoFault?.();
	}
}

async function runNodeIn({ node, parameters, credentials, items, onError, stopAfterMs, nodeSettings, executionTimeoutS, executionId, subWorkflows, instanceBaseUrl, credentialId }) {
	// `nodeSettings`: the node's Settings tab (retryOnFail, maxTries, waitBetweenTries, ...).
	const settings = executionTimeoutS === undefined ? {} : { executionTimeout: executionTimeoutS };
	const { workflow, node: nodeData } = makeWorkflow(node, { ...(onError ? { onError } : {}), ...nodeSettings }, parameters, undefined, undefined, settings, credentialId);
	const additionalData = makeAdditionalData(credentials, workflow.id, executionId);
	if (executionTimeoutS !== undefined) additionalData.executionTimeoutTimestamp = Date.now() + executionTimeoutS * 1000;
	if (instanceBaseUrl) additionalData.instanceBaseUrl = instanceBaseUrl;
	const subExecutions = [];
	// As n8n's WorkflowExecuteAdditionalData.executeWorkflow answers a finished sub-execution: its id and its last node's items.
	additionalData.executeWorkflow = async (workflowInfo, _data, options) => {
		if (subWorkflows === 'fail') throw new Error('sub-workflow executions are refused here');
		subExecutions.push({ workflow: workflowInfo.code, items: options.inputData, parentExecution: options.parentExecution, parentWorkflowId: options.parentWorkflowId, at: Date.now() });
		return { executionId: `${executionId}-sub-${subExecutions.length}`, data: [options.inputData] };
	};
	const runExecutionData = {
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			nodeExecutionStack: [{ node: nodeData, data: { main: [items] }, source: null }],
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	};
	const execute = new core.WorkflowExecute(additionalData, 'manual', runExecutionData);
	const started = Date.now();
	const running = execute.processRunExecutionData(workflow);
	let timer;
	const cancelAfterMs = Math.min(stopAfterMs ?? Infinity, executionTimeoutS === undefined ? Infinity : executionTimeoutS * 1000);
	if (Number.isFinite(cancelAfterMs)) timer = setTimeout(() => running.cancel(), cancelAfterMs);
	let run;
	try {
		run = await running;
	} catch (error) {
		run = { data: runExecutionData, status: 'canceled', cancelError: error };
	} finally {
		clearTimeout(timer);
	}
	const durationMs = Date.now() - started;
	const taskData = run.data.resultData.runData.Gateway?.[0];
	const output = taskData?.data?.main?.[0] ?? [];
	// On Error = 'continueErrorOutput': n8n moves the failed items to a second output.
	const errorItems = onError === 'continueErrorOutput' ? (taskData?.data?.main?.[1] ?? []) : undefined;
	const error = taskData?.error ?? run.data.resultData.error;
	// What n8n shows above the output (addExecutionHints), as n8n-core records it on the run.
	const hints = taskData?.hints ?? [];
	// n8n's community lint (hint-max-length) keeps a hint within 120 characters: every run checks its own.
	for (const { message } of hints) {
		if (String(message).length > MAX_HINT_LENGTH) throw new Error(`a hint of ${String(message).length} characters (at most ${MAX_HINT_LENGTH}): ${message}`);
	}
	// Every output of every test is checked against the operation's output schema (what n8n's editor
	// offers for mapping before a run), so a schema cannot drift from what the node emits.
	if (node === 'unifiedAiGateway') assertOutputMatchesSchema(parameters, output);
	return { items: output, errorItems, error, status: run.status, durationMs, run, hints, subExecutions, credentialReads: additionalData.credentialsHelper.reads ?? 0 };
}

/** Reads a binary output the way a downstream node would, whatever the storage mode. */
async function binaryBuffer(binary) {
	if (binary.id) return await binaryService.getAsBuffer(binary);
	return Buffer.from(binary.data, 'base64');
}

/** Makes an input item's binary property through n8n's own helper (any storage mode). */
async function makeBinary(buffer, fileName, mimeType, binaryMode = 'default') {
	if (!binaryService || binaryService.mode !== (binaryMode === 'filesystem' ? 'filesystem-v2' : binaryMode)) {
		await useBinaryMode(binaryMode);
	}
	return await core.prepareBinaryData(buffer, 'exec-1', 'wf-test', fileName, mimeType);
}

/**
 * One poll() through n8n-core's PollContext; static data persists across calls. workflowId: polls
 * of one trigger node share what they know in the process (pollClaims.ts), so independent watchers
 * need their own. pollBudgetMs: what n8n 2.x's getPollBudgetMs() offers (1.x's PollContext has no
 * such method). activation: an object of the test's; polls given the same one run on one context,
 * as n8n's polls of one activation do (n8n-core makes the poll functions once, when it activates the
 * workflow): its first poll's parameters, static data and credential hold for all.
 */
async function pollTrigger({ parameters, credentials, staticData = {}, mode = 'trigger', workflowId, pollBudgetMs, binaryMode, binaryFault, credentialId, activation }) {
	if (!binaryService || (binaryMode && binaryService.mode !== (binaryMode === 'filesystem' ? 'filesystem-v2' : binaryMode))) await useBinaryMode(binaryMode ?? 'default');
	const undoFault = binaryFault ? injectStorageFault(binaryFault) : undefined;
	try {
		return await pollOnce({ parameters, credentials, staticData, mode, workflowId, pollBudgetMs, credentialId, activation });
	} finally {
		undoFault?.();
	}
}

async function pollOnce({ parameters, credentials, staticData, mode, workflowId, pollBudgetMs, credentialId, activation }) {
	let made = activation?.made;
	if (!made) {
		const { workflow, node } = makeWorkflow('unifiedAiGatewayTrigger', {}, parameters, staticData, workflowId, {}, credentialId);
		const additionalData = makeAdditionalData(credentials, workflow.id);
		made = { workflow, node, context: new core.PollContext(workflow, node, additionalData, mode, 'manual') };
		if (activation) activation.made = made;
	}
	const { workflow, node, context } = made;
	if (pollBudgetMs !== undefined) context.getPollBudgetMs = () => pollBudgetMs;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, 1);
	const result = await nodeType.poll.call(context);
	return { result, staticData: workflow.staticData };
}

/**
 * A node execution context of n8n-core (ExecuteContext) for our node, outside a workflow run:
 * for calling one engine function (dist/…) the way the node calls it, with real HTTP and the
 * execution's cancel signal (`abort()`).
 */
function executeContext({ credentials, parameters = {}, executionTimeoutS }) {
	const settings = executionTimeoutS === undefined ? {} : { executionTimeout: executionTimeoutS };
	const { workflow, node } = makeWorkflow('unifiedAiGateway', {}, parameters, undefined, undefined, settings);
	const additionalData = makeAdditionalData(credentials, workflow.id, `ctx-${Date.now()}`);
	if (executionTimeoutS !== undefined) additionalData.executionTimeoutTimestamp = Date.now() + executionTimeoutS * 1000;
	const controller = new AbortController();
	Container.get(SSHClientsManager).cleanupTimer?.unref?.();
	const context = new core.ExecuteContext(workflow, node, additionalData, 'manual', { resultData: { runData: {} } }, 0, [], { main: [[{ json: {} }]] }, { node, data: {}, source: null }, [], controller.signal);
	return { context, abort: () => controller.abort() };
}

/**
 * A sub-node's supplyData (the Chat Model's), as n8n-core calls it when an AI Agent or a chain asks
 * for its model: through n8n-core's SupplyDataContext, with real HTTP. Resolves with what the node
 * supplied ({ response: the model }), `runExecutionData` (what n8n logged of its calls) and `abort()`,
 * the execution's Stop.
 */
async function supplyData({ node = 'unifiedAiGatewayChatModel', parameters, credentials, credentialId }) {
	const { workflow, node: nodeData } = makeWorkflow(node, {}, parameters, undefined, undefined, {}, credentialId);
	const additionalData = makeAdditionalData(credentials, workflow.id, `supply-${Date.now()}`);
	const controller = new AbortController();
	Container.get(SSHClientsManager).cleanupTimer?.unref?.();
	// What n8n logs of each model call (the SDK's tracing: input, output, tokens) lands in runExecutionData.
	const runExecutionData = {
		resultData: { runData: {} },
		executionData: { contextData: {}, nodeExecutionStack: [], metadata: {}, waitingExecution: {}, waitingExecutionSource: {} },
	};
	const context = new core.SupplyDataContext(
		workflow, nodeData, additionalData, 'manual', runExecutionData, 0, [], { main: [[{ json: {} }]] },
		'ai_languageModel', { node: nodeData, data: {}, source: null }, [], controller.signal,
	);
	const supplied = await loadNode(node).supplyData.call(context, 0);
	return { ...supplied, context, runExecutionData, abort: () => controller.abort() };
}

/**
 * A list-search method of the node (the model picker's searchVideoModels, …) as the editor calls
 * it: through n8n-core's LoadOptionsContext, with real HTTP to the gateway.
 */
async function listSearch(method, { credentials, filter, paginationToken, parameters = {} }) {
	const { workflow, node } = makeWorkflow('unifiedAiGateway', {}, parameters);
	const additionalData = makeAdditionalData(credentials, workflow.id, `search-${Date.now()}`);
	const context = new core.LoadOptionsContext(workflow, node, additionalData, 'modelId');
	// The context starts n8n-core's SSH client manager and its 60 s cleanup interval: it must not hold the test process open.
	Container.get(SSHClientsManager).cleanupTimer?.unref?.();
	const Node = loadNode('unifiedAiGateway');
	return await Node.methods.listSearch[method].call(context, filter, paginationToken);
}

/**
 * The credential's Test button, as n8n's CLI CredentialsTester runs a request-based test:
 * a RoutingNode request through ExecuteContext, then the credential's rules in order.
 */
async function testCredential(credentials) {
	const type = loadCredentialType();
	const { request, rules = [] } = type.test;
	const nodeType = {
		description: {
			name: 'credentialTest',
			displayName: 'Credential test',
			version: 1,
			defaults: {},
			inputs: [],
			outputs: [],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request }, default: '' }],
		},
	};
	const node = { id: 'temp', name: 'Temp-Node', type: 'credentialTest', typeVersion: 1, position: [0, 0], parameters: {}, credentials: { [CREDENTIAL_TYPE]: { id: 'cred', name: 'Gateway' } } };
	const workflow = new wf.Workflow({
		nodes: [node], connections: {}, active: false,
		nodeTypes: { getByName: () => nodeType, getByNameAndVersion: () => nodeType, getKnownTypes: () => ({}) },
	});
	const additionalData = makeAdditionalData(credentials, 'wf-cred');
	const context = new core.ExecuteContext(workflow, node, additionalData, 'internal', { resultData: { runData: {} } }, 0, [], { main: [[{ json: {} }]] }, { node, data: {}, source: null }, []);
	const routing = new core.RoutingNode(context, nodeType, { id: 'cred', name: 'Gateway', type: CREDENTIAL_TYPE, data: credentials });
	let response;
	try {
		response = await routing.runNode();
	} catch (error) {
		const status = error.cause?.response?.status;
		if (status !== undefined && (status < 200 || status > 299)) {
			return { status: 'Error', message: error.cause.response.statusText || `Received HTTP status code: ${status}` };
		}
		return { status: 'Error', message: error.cause?.code ?? error.message };
	}
	const body = response?.[0]?.[0]?.json;
	for (const rule of rules) {
		if (rule.type === 'responseSuccessBody' && getPath(body, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

function getPath(object, key) {
	return key.split('.').reduce((value, part) => (value == null ? undefined : value[part]), object);
}

module.exports = { runNode, pollTrigger, testCredential, executeContext, supplyData, listSearch, binaryBuffer, makeBinary, useBinaryMode, loadNode, MAX_HINT_LENGTH };
