// Types for the gateway simulator (test/simulator/index.js).

export type Origin = 'main' | 'alt' | 'files';

export interface SimulatorOptions {
  /** Bearer key accepted on the main and alt hosts. Default 'sk-sim-good'. */
  apiKey?: string;
  /** Default '127.0.0.1'. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  altPort?: number;
  filesPort?: number;
  /** Multiplies every scenario duration (durationMs, queuedMs, stuckMs, syncDelayMs). Default 1. */
  timeScale?: number;
  /** Default true: no per-request log lines. */
  quiet?: boolean;
  /** Receives one line per request when quiet is false. Default: process.stdout. */
  log?: (line: string) => void;
  /** Every origin over HTTPS with the committed self-signed certificate (fixtures/tls). Default false. */
  https?: boolean;
  /** Models switched off upstream: every submit answers 503 model_not_found, /v1/models omits them. Default none. */
  retiredModels?: string[];
  /** The language of that answer when the request's Accept-Language is not zh. Default 'en'. */
  retiredLanguage?: 'en' | 'zh';
  /** The gateway build played after every reset (profiles.js). Default 'commercial'. */
  profile?: Profile;
  /**
   * How task records are refreshed (relay.js): 'live' (default: every read asks the provider) or
   * 'relay', new-api's system task (15 s rounds, 1 s per task inside a channel; Gemini/Vertex video live).
   */
  refresh?: Refresh;
}

export type Refresh =
  | 'live'
  | 'relay'
  | { pace: 'relay'; roundMs?: number; perTaskMs?: number; channels?: number; phaseMs?: number };

/**
 * commercial: the document's gateway (/v1/balance, /v1/tasks, uploads), no relay money routes until
 * setPricing; plainNewApi: new-api without the extensions (its quota, price list, status and billing
 * routes, task records with `quota`); oneApi: one-api (no video, no /api/pricing, no /api/usage/token/).
 */
export type Profile = 'commercial' | 'plainNewApi' | 'oneApi';

/** GET /api/status values, served as given (text or NaN too). */
export interface SiteStatusValues {
  quota_per_unit?: unknown;
  quota_display_type?: 'USD' | 'CNY' | 'TOKENS' | 'CUSTOM' | string;
  usd_exchange_rate?: unknown;
}

/** One model's entry of GET /api/pricing (fields of new-api's), laid over the simulator's default. */
export interface PriceEntry {
  quota_type?: unknown;
  model_price?: unknown;
  model_ratio?: unknown;
  completion_ratio?: unknown;
  enable_groups?: string[];
  [key: string]: unknown;
}

export type RecordedPart =
  | { name: string; filename: string; contentType: string; size: number; sha256: string }
  | { name: string; value: string };

export interface RecordedRequest {
  origin: Origin;
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  /** Lower-case names; authorization masked as 'Bearer ***' + last 3 characters. */
  headers: Record<string, string | string[] | undefined>;
  hasAuth: boolean;
  authValid: boolean;
  /** The header is exactly `Bearer <key>` (no stray whitespace). */
  authExact: boolean;
  /** Parsed JSON, raw text, or undefined (empty or multipart body). */
  body: unknown;
  /** Multipart bodies only. */
  parts?: RecordedPart[];
  /** Arrival time, ms since epoch. */
  at: number;
  /** When the answer was fully handed over, ms since epoch; absent while pending or when the connection was dropped. */
  answeredAt?: number;
  /** When the connection ended (answered, dropped, or left by the client), ms since epoch. */
  closedAt?: number;
  /** A `huge` or `gzipBomb` fault only: the bytes written so far (a bomb's compressed bytes; socket buffers included); stops growing when the client stops reading. */
  bytesSent?: number;
  /** A `gzipBomb` fault only: what its whole body would inflate to. */
  inflatesTo?: number;
}

/**
 * gzipBomb: 200 with Content-Encoding gzip (`encoding` 'deflate' | 'br') inflating to `bytes` (default
 * 2 GB) of one JSON string, made as the client reads. deepJson: `body` (default a running task) with
 * a field `nested` of [[[…]]] `depth` levels deep (default 20,000, about 40 KB).
 */
export type FaultKind = 'drop' | 'slow' | 'malformed' | 'breakStream' | 'trickle' | 'huge' | 'gzipBomb' | 'deepJson';

export interface Fault {
  /** Matched against the path without query: exact string or RegExp. */
  path: string | RegExp;
  method?: string;
  origin?: Origin;
  /** How many matching requests this fault takes. Default 1; Infinity allowed. */
  times?: number;
  status?: number;
  headers?: Record<string, string>;
  /** Object: sent as JSON. String: sent raw ('' = empty body; '<html>' sent as text/html). Buffer: the bytes as given (name their charset in headers). Default: an OpenAI-style error for the status. */
  body?: string | object | Buffer;
  kind?: FaultKind;
  /** Wait before answering (kind 'slow' defaults to 1000). Not scaled by timeScale. */
  delayMs?: number;
  /** huge: bytes sent (default 300 MB); gzipBomb: bytes it inflates to (default 2 GB). */
  bytes?: number;
  /** gzipBomb: the compression named in Content-Encoding. Default 'gzip'. */
  encoding?: 'gzip' | 'deflate' | 'br';
  /** deepJson: levels of nesting. Default 20,000. */
  depth?: number;
  contentType?: string;
}

/** moderated: completed with error.code moderation_blocked and no file (a blocked Grok video, billed). */
export type TaskOutcome = 'success' | 'fail' | 'cancel' | 'stuck100' | 'noUrl' | 'never' | 'moderated';

export interface Scenario {
  /**
   * Total time until the terminal state. Default 2000 (images), 3000 (video). [min, max]: each task
   * of the model its own duration in that range (deterministic, spread evenly in creation order).
   */
  durationMs?: number | [number, number];
  /** Progress values reported while running, e.g. [0, 25, 50, 100]. */
  progressSteps?: number[];
  /** Time in queued before running. Default 10% of durationMs. */
  queuedMs?: number;
  outcome?: TaskOutcome;
  /** stuck100 only: time at 100% in_progress before completing. Default forever. */
  stuckMs?: number;
  failMessage?: string;
  /**
   * Seconds, reported as data.estimated_time in generic shape B (default: from durationMs).
   * 'none' leaves the field out; 'alternate' leaves it out for every other task (the 2nd, 4th, …).
   */
  estimatedTime?: number | 'none' | 'alternate';
  /** Every n-th task of the model (since reset) fails; the others follow outcome. */
  failEvery?: number;
  /** Generic GET /v1/tasks/{id} shape. Default B for images, A for video. */
  shape?: 'A' | 'B';
  /** Where GET /v1/videos/{id} puts the finished URL. Default 'video_url'. */
  urlField?: 'video_url' | 'result_url' | 'url' | 'metadata.url';
  /** gpt-image-2.5-flare / -sunburst: 'task' answers like the async models. */
  mode?: 'task' | 'sync';
  /** Sync image models: hold the response this long. */
  syncDelayMs?: number;
  /** Result image count for task models. Default n or 1. */
  images?: number;
  /** Finished video tasks point at a streamed file of exactly this many bytes. */
  videoBytes?: number;
  /** 'edits': an async GPT edit task is unknown (404) on /v1/images/generations/{id}, read only at /v1/images/edits/{id}. */
  editQuery?: 'edits';
  /** A video task's URL is `{serverAddress}/v1/videos/{id}/content`: the relay's own configured address. */
  serverAddress?: string;
  /** plainNewApi: what the task record's `quota` settles at, in USD (default: the price list's price × ratios). */
  chargeUsd?: number;
  /** Where the answers say the result is (a hostile gateway: an address on the n8n host, a metadata service): a URL, or one per task and image. */
  resultUrl?: string | ((task: { id: string; model: string }, index: number) => string);
}

export interface BalanceValues {
  remain?: number;
  used?: number;
  unlimited?: boolean;
  /** When set, the balance route answers {success:false, message} with HTTP 200. */
  message?: string;
}

export interface ModelObject {
  id: string;
  object?: string;
  created?: number;
  owned_by?: string;
  supported_endpoint_types?: string[];
  [key: string]: unknown;
}

export type TaskStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

export interface TaskRecord {
  id: string;
  model: string;
  /** Which query shapes apply: 'gpt' | 'nano' | 'alt' | 'video'. */
  family: 'gpt' | 'nano' | 'alt' | 'video';
  kind: 'image' | 'video';
  /** e.g. 'images.generations', 'images.edits', 'alt.generations', 'video.generations', 'videos.json', 'videos.grok'. */
  route: string;
  origin: 'main' | 'alt';
  mode: 'generate' | 'edit';
  createdAt: number;
  timeScale: number;
  /** Scenario snapshot taken at creation. */
  scenario: Scenario;
  params: Record<string, unknown>;
  images: number;
  /** Result URLs the task delivers once completed (empty for outcome noUrl). */
  urls: string[];
  /** Computed for "now". */
  status: TaskStatus;
  progress: number;
  startedAt?: number;
  finishedAt?: number;
  /** Behind refresh 'relay': its channel, when its record was refreshed and when its end became visible. */
  relay?: { channel: string; refreshes: number[]; visibleAt?: number };
}

export interface RedirectRule {
  path: string | RegExp;
  method?: string;
  origin?: Origin;
  /** An origin name or a URL base the Location starts with. */
  to: Origin | string;
  /** Path appended to `to` (default: the request's own path). */
  location?: string | ((path: string, ctx: unknown) => string);
  status?: 301 | 302 | 303 | 307 | 308;
  times?: number;
}

export interface RateLimitRule {
  path: string | RegExp;
  method?: string;
  origin?: Origin;
  perSecond: number;
  /** Token bucket size (default perSecond). */
  burst?: number;
  /** How the 429 says when to come back (default 'seconds', rounded up to a whole second). */
  retryAfter?: 'seconds' | 'date' | 'none' | 'zero';
}

export interface Simulator {
  readonly mainUrl: string;
  readonly altUrl: string;
  readonly filesUrl: string;
  /** Oldest first; cleared in place by reset(). */
  readonly requests: RecordedRequest[];
  /** The relay's consume rows (type 2) of billed synchronous calls, oldest first: quota, group, request_id. */
  readonly usageLog: Array<{ model_name: string; quota: number; request_id: string; group: string; [key: string]: unknown }>;
  /** method: e.g. 'GET' ('*' or '' = any); path: exact path or RegExp. */
  count(method: string | null, path: string | RegExp, origin?: Origin): number;
  find(method: string | null, path: string | RegExp, origin?: Origin): RecordedRequest[];
  /** Clears requests, faults, scenarios, balances, models, tasks and uploads. */
  reset(): void;
  /** TCP connections an origin (all three when not given) accepted since reset(): keep-alive reuse shows as fewer than requests. */
  connections(origin?: Origin): number;
  inject(fault: Fault): void;
  /** A standing redirect (until reset or `times` used up); runs before faults and auth. */
  redirect(rule: RedirectRule): void;
  /** A standing token-bucket limit (until reset); counts what it let through and refused. */
  rateLimit(rule: RateLimitRule): { readonly limited: number; readonly passed: number };
  /**
   * new-api's performance guard (middleware/performance.go): the next `calls` (default 1; Infinity
   * until reset) POSTs on the main origin's guarded relay routes (chat, images, audio, … but not the
   * video routes or /v1/models) are answered 503 `system_<kind>_overloaded` before the key is checked:
   * nothing is created or billed. Replaces an earlier call's; counts what it refused.
   */
  overload(calls?: number, kind?: 'cpu' | 'memory' | 'disk'): { readonly refused: number; readonly remaining: number };
  /** Replaces the scenario for a model id or '*'; null removes it. Applies to tasks created afterwards. */
  scenario(model: string, opts: Scenario | null): void;
  setBalance(kind: 'token' | 'user', values: BalanceValues): void;
  /** null restores the default catalogue. */
  setModels(models: ModelObject[] | null): void;
  /** The build played until the next reset(), which restores the start option's. */
  setProfile(profile: Profile): void;
  readonly profile: Profile;
  /** How task records are refreshed until the next reset(), which restores the start option's. */
  setRefresh(refresh: Refresh): void;
  readonly refresh:
    | { pace: 'live' }
    | { pace: 'relay'; roundMs: number; perTaskMs: number; channels: number; phaseMs: number };
  /** The relay's rounds so far (refresh 'relay'), oldest first; tasks: how many it refreshed. */
  relayRounds(now?: number): Array<{ startedAt: number; endedAt: number; tasks: number }>;
  setSiteStatus(values: SiteStatusValues): void;
  /**
   * Price list entries by model (null leaves a model out), group ratios and the groups a user may
   * pick (usable_group: the anonymous list shows only their ratios, as new-api's).
   */
  setPricing(
    entries?: Record<string, PriceEntry | null>,
    options?: { groupRatio?: Record<string, unknown>; usableGroup?: Record<string, string> },
  ): void;
  /** The key's group ('default' after reset): its charges follow that group's ratio; no route tells it. */
  setKeyGroup(group: string): void;
  /** The key used up, expired or disabled at the relay once `afterCalls` more POSTs passed (bare 401 on plain relays). */
  setKeyState(state: 'active' | 'exhausted' | 'expired' | 'disabled', options?: { afterCalls?: number }): void;
  /** The token's and the user's quota now (USD): plain new-api and one-api take each billed call from it. */
  readonly balances: { token: BalanceValues; user: BalanceValues };
  task(taskId: string): TaskRecord | undefined;
  /** Every task created since reset(), oldest first. */
  taskIds(): string[];
  /** Every result URL a synchronous image answer carried since reset() (signed ones with their query). */
  syncResults(): string[];
  close(): Promise<void>;
}

export function startSimulator(options?: SimulatorOptions): Promise<Simulator>;
