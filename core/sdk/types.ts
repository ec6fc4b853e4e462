/**
 * The connector SDK's vocabulary. A connector is mostly data: a manifest with transport settings and
 * a list of declared actions, which core turns into behaviour. What an upstream does that no data can
 * say (a quirk of its API) the connector writes as hooks of its own. A connector never imports
 * anything else from core.
 */

/** A JSON Schema, carried as a value so a connector published as its own package brings its schemas. */
export type JsonSchema = Record<string, unknown>;

export const AUTH_KINDS = ['oauth', 'token'] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];

/**
 * Credentials of the two auth kinds: OAuth carries `access_token`, a personal access token `token`.
 * An OAuth credential that also carries `refresh_token` (with the client's id and secret, and a token
 * URL unless the connector declares `auth.oauth2`) is kept alive: refreshed before `expires_at`, and
 * once more when the upstream says the access token expired.
 */
export interface OAuthCredentials {
  access_token: string;
  refresh_token?: string;
  /** When the access token expires: an ISO 8601 time or epoch seconds. Unknown: refreshed only when the upstream says it expired. */
  expires_at?: string | number;
  client_id?: string;
  client_secret?: string;
  /** The provider's token endpoint; default the connector's `auth.oauth2.tokenUrl`. */
  token_url?: string;
}
export interface TokenCredentials {
  token: string;
}
export type Credentials = OAuthCredentials | TokenCredentials;

/** The credential field that holds the secret, per auth kind. */
export const CREDENTIAL_FIELD: Record<AuthKind, 'access_token' | 'token'> = {
  oauth: 'access_token',
  token: 'token',
};

export const ACTION_NAMES = ['list', 'get', 'create', 'update', 'search', 'download'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

/** How a credential is sent: `<header>: <scheme> <secret>` (scheme omitted when empty). */
export interface AuthHeaderRule {
  header: string;
  scheme?: string;
}

/**
 * The provider's OAuth 2.0 authorization-code flow, declared: where the end user consents, where
 * codes and refresh tokens become access tokens, and how the API says an access token expired. The
 * access token travels by the `oauth` header rule, which a connector declaring this must have.
 */
export interface OAuth2Settings {
  /** Whose account the end user connects, as a button names it ("Connect with Slack"). */
  providerName: string;
  /** The consent page (Slack's `https://slack.com/oauth/v2/authorize`). */
  authorizeUrl: string;
  /** The token endpoint: authorization codes and refresh tokens in, access tokens out. */
  tokenUrl: string;
  /** Scopes asked for unless the caller names its own. */
  scopes: string[];
  /** How scopes are joined in the authorize URL: Google a space (the default), Slack a comma. */
  scopeSeparator?: string;
  /** Further authorize URL params (Google's `access_type=offline`, `prompt=consent`, which bring a refresh token). */
  authorizeParams?: Record<string, string>;
  /** Proof Key for Code Exchange (S256) on the authorize and token requests. */
  pkce?: boolean;
  /** How an API call says its access token expired: an upstream code (read at `transport.errors.codePath`) or an HTTP status. */
  expiredToken: { codes?: string[]; status?: number };
  /** Token endpoint error codes meaning the grant is gone (revoked, a rotated refresh token used twice): the end user must connect again. Default `invalid_grant`. */
  revokedCodes?: string[];
}

/** How a connector authenticates: a header rule per credential kind, and the OAuth flow when it has one. */
export interface ConnectorAuth extends Partial<Record<AuthKind, AuthHeaderRule>> {
  oauth2?: OAuth2Settings;
}

/** Where an upstream error code sits in a response and what it means to our callers. */
export interface UpstreamErrorSettings {
  /**
   * Whether a success (2xx) body reports a failure all the same (Slack answers `{ok: false, error}`
   * with HTTP 200). Such a body is retried and mapped like an error response's body.
   */
  failureInBody?(body: unknown): boolean;
  /** Dotted path of the upstream error code in an error body (`error`, `error.errors.0.reason`). */
  codePath: string;
  /** Dotted path of a human-readable message in an error body, when the upstream gives one. */
  messagePath?: string;
  /** Upstream code → status we answer with. Codes not listed: 400 in a success body (`failureInBody`), else by the upstream status. */
  statusByCode: Record<string, number>;
  /** Upstream code → a clearer `detail` for our callers (e.g. which action to use instead). */
  detailByCode?: Record<string, string>;
  /**
   * Codes that mean "rate limited" whatever status carries them (Drive's 403 `userRateLimitExceeded`,
   * Slack's `ratelimited`). Retried like a 429, writes included (a rate-limited call was not
   * processed), then surfaced as 429 with a Retry-After hint.
   */
  rateLimitCodes?: string[];
  /**
   * Codes that mean a passing upstream failure even inside a 2xx body (Slack's 200 `ok: false`
   * `internal_error`). Retried like a 5xx, for reads only; then surfaced with their `statusByCode`.
   */
  transientCodes?: string[];
}

export interface TransportSettings {
  /**
   * Milliseconds. JSON calls: the whole request, body included. Downloads: each step up to the
   * response head (connect, send, wait for the head); their body has no total bound, since a large
   * file or a slow reader may rightly take hours.
   */
  timeoutMs: number;
  /** Downloads: the longest the connection may stay silent while the body streams (ms). Default: `timeoutMs`. */
  streamIdleTimeoutMs?: number;
  /** Retries after the first attempt, for 429 always and for 5xx / network errors on reads only. */
  maxRetries: number;
  /** Longest Retry-After we wait for; a longer one fails at once with 429 and the upstream's Retry-After. */
  maxRetryAfterSeconds: number;
  errors: UpstreamErrorSettings;
}

/** Cursor pagination as data: which param carries the cursor and which meta key holds the next one. */
export interface PaginationSettings {
  cursorParam: string;
  nextCursorMeta: string;
}

export interface UpstreamCall {
  method: 'GET' | 'POST';
  /**
   * Appended to the instance's base URL, e.g. `/users.list`. `{name}` placeholders are filled from the
   * params of that name (URL-encoded) and those params are not sent again.
   */
  path: string;
  /** How params travel on POST; GET always uses the query string. */
  body?: 'json' | 'form';
  /** Params that travel as request headers instead: header name → param name (`Range` ← `range_header`). */
  headerParams?: Record<string, string>;
  /** Values sent for params the caller left out (Drive's `fields`, which some methods require). */
  defaults?: Record<string, string | number | boolean>;
}

/** Where records and meta sit in an upstream response (not used by downloads, which stream bytes). Paths are dotted; `''` is the whole body. */
export interface ResponseMapping {
  records: string;
  /** Meta key (as callers read it in `connector_metadata`) → path in the response. */
  meta?: Record<string, string>;
}

/**
 * Further upstream calls a hook makes through the connector instance's own transport: its base URL,
 * auth header, timeouts, retries and error mapping, as for an action's declared call.
 */
export interface UpstreamClient {
  /**
   * Sends `call` with `params` (encoded as an action's params are) and resolves to the parsed JSON
   * body, or rejects with the mapped error. A GET is retried like a read; a POST never is.
   */
  requestJson(call: UpstreamCall, params: Record<string, unknown>): Promise<unknown>;
}

/**
 * What an action does beyond its declared call, written in the connector's own code. `P` is the type
 * of the action's params (its generated `...Params` type): hooks only ever see params that the
 * params schema accepted. Core runs them in this order: `prepareParams`, then `run` or the declared
 * call (a download's `fileName` beside it), then `transformResponse`, then the `response` mapping.
 */
export interface ActionHooks<P extends object = object> {
  /** Rewrites the validated params before anything is sent (Drive: a caller's `fields` widened). Returns new params; never mutates. */
  prepareParams?(params: P): P;
  /** Rewrites the upstream body before `response` picks records and meta from it (Slack: a field the record lacks, from the envelope). */
  transformResponse?(body: unknown, params: P): unknown;
  /**
   * `download` actions: the file's name, when the content response does not carry it (null when
   * unknown). Run beside the content request; its failure is no failure of the download.
   */
  fileName?(params: P, upstream: UpstreamClient): Promise<string | null>;
  /**
   * In place of the declared `request`, for an action that is not one HTTP call (not for downloads).
   * Resolves to the body the `response` mapping reads; params are validated before, records completed after.
   */
  run?(params: P, upstream: UpstreamClient): Promise<unknown>;
}

/**
 * One declared entity.action. `P` types its hooks' params; an action of any `P` fits where core
 * takes an `ActionDefinition` (core calls hooks only with params its schema accepted).
 */
export interface ActionDefinition<P extends object = object> {
  entity: string;
  action: ActionName;
  description: string;
  params: JsonSchema;
  record: JsonSchema;
  /** Schema of the meta object (types for the generated facade); required when `response.meta` is set. */
  meta?: JsonSchema;
  /** Absent only for hosted-only actions (search), which core serves without an upstream call, and actions whose `hooks.run` calls upstream itself. */
  request?: UpstreamCall;
  response: ResponseMapping;
  /** Reads may be retried after a 5xx or network error; writes never are. Defaults: GET true, POST false. */
  idempotent?: boolean;
  /** Lists that follow the connector's cursor pagination. */
  paginated?: boolean;
  /** Served only by the hosted runtime (search over the context store). */
  hostedOnly?: boolean;
  /** The action's own code, for what the declared call and mapping cannot say. */
  hooks?: ActionHooks<P>;
  /** Search actions: what the context store keeps of the entity and how it is indexed (see `defineSearchAction`). */
  searchIndex?: SearchIndex;
}

/**
 * What the context store keeps of one entity, declared on its `search` action: the document schema
 * (the searchable fields with their types, which checks filters and types the hits), how a record's
 * id is made, and which string fields are full-text indexed.
 */
export interface SearchIndex {
  /** JSON Schema of a stored document: its top-level properties are the fields kept; nested `properties` and array `items` give dot paths. */
  document: JsonSchema;
  /** The field holding the record's id, or fields whose values joined by `:` make it (a message: channel_id, ts). */
  id: string | string[];
  /** String fields (dot paths) indexed by word for `keyword` and `fuzzy`. */
  textFields: string[];
  /** String fields (dot paths) indexed by trigram, so `like` on them needs no scan: short ones (names), as the index is large. Text and substring fields together: at most 64. */
  substringFields?: string[];
  /**
   * Plain fields (dot paths outside arrays) with a B-tree index: `eq`, ranges, `in` and sorts on them
   * read the index; on others they scan the entity. Each index slows writes. Default: the top-level
   * string and number fields that are not text fields.
   */
  indexedFields?: string[];
}

/** A record as replication hands it to the store: any JSON object; the store keeps the document's fields. */
export type StoredRecord = Record<string, unknown>;

/**
 * What a connector's `replicate` hook works with: its instance's own actions (core's retries, rate
 * limits and pagination; a rate limit only slows replication down) and the context store it fills.
 */
export interface ReplicationContext<C = Record<string, unknown>> {
  /** The hosted connector's `replication_config` (in-process: what `replicate()` was given); undefined when none was set. */
  config: C | undefined;
  /** The time the run started. */
  startedAt: Date;
  /** Runs one of the connector's own actions and resolves to its `result`. */
  call(entity: string, action: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Every record of a paginated list, page after page. */
  list(entity: string, action: string, params?: Record<string, unknown>): AsyncIterable<StoredRecord>;
  /** A call that is no declared action (Slack's `conversations.join`), on the instance's transport. */
  upstream: UpstreamClient;
  /** Replaces the entity whole: records not yielded disappear, once every record was read (nothing is dropped if the run stops early). */
  replaceAll(entity: string, records: AsyncIterable<StoredRecord>): Promise<number>;
  /** Adds or updates records (incremental entities); ids come from the entity's `searchIndex.id`. */
  upsert(entity: string, records: StoredRecord[]): Promise<void>;
  /** Marks an incremental entity as read through this run (its `synced_at`), once all its parts are. */
  entityDone(entity: string): Promise<void>;
  /** A checkpoint kept between runs (the newest message read per channel): saved only after what it vouches for is stored. */
  checkpoint(key: string): Promise<string | undefined>;
  saveCheckpoint(key: string, value: string): Promise<void>;
}

/** How a connector fills its context store: a function of its own, run by core's replication jobs. */
export type ReplicateFunction = (context: ReplicationContext) => Promise<void>;

/**
 * How to tell whether credentials work before they are stored: one of the connector's own read
 * actions, called with fixed params. The hosted server runs it when a connector is created, so a
 * refused credential is a 400 `credentials_rejected` then rather than a 502 at first use; in-process
 * it is `client.checkCredentials()`.
 */
export interface CredentialCheck {
  entity: string;
  action: ActionName;
  /** Params of the call (a cheap one: Drive's `about.get` with `fields: 'user'`); checked against the action's params schema at load. */
  params?: Record<string, unknown>;
  /**
   * Upstream error codes of that call that mean the credential itself is refused (Slack's
   * `invalid_auth`, Drive's `authError`). Any other failure (the upstream down, rate limiting) says
   * nothing about the credential, so it keeps its own error (502, 429).
   */
  rejectedCodes: string[];
}

/**
 * How the sync engine reads one entity into a destination table, beyond what it infers: every entity
 * with a `list` action whose params need nothing is a stream read whole (full refresh), its primary
 * key the search index's id (else `id`). Declared per entity in `ConnectorDefinition.syncStreams`.
 */
export interface SyncStreamSettings {
  /** Fixed params of each list call (a page size, Slack's conversation types). */
  params?: Record<string, unknown>;
  /** Fields whose values together identify a record (deduplication, the table's primary key). */
  primaryKey?: string[];
  /** An entity listed once per record of another stream (a channel's messages, a file's revisions). */
  parent?: SyncStreamParent;
  /** Read only what is new since the last sync, from a cursor or a change feed's token. */
  incremental?: CursorIncremental | TokenIncremental;
}

export interface SyncStreamParent {
  stream: string;
  /** List param ← the parent record's field that fills it (`channel` ← `id`). */
  params: Record<string, string>;
  /** Record field ← parent field, added to each record (the channel id a message does not carry). */
  fields?: Record<string, string>;
  /** Which parents are listed (the channels the bot can read), given the source's settings; default all. */
  include?(parent: StoredRecord, settings: Record<string, unknown>): boolean;
}

/**
 * A record field that only grows (Slack's `ts`): each sync lists from the newest value seen (per
 * parent record, for a stream that has one), passed in `startParam`.
 */
export interface CursorIncremental {
  cursorField: string;
  startParam: string;
  /** The `startParam` value for a saved cursor (none on the first sync), given the source's settings (a start date, a lookback window). */
  startFrom?(cursor: string | undefined, settings: Record<string, unknown>): string | undefined;
}

/**
 * A change feed (Drive's `changes`): the first sync only takes a token where the feed starts (a
 * `get` action's field); each later one lists from the saved token (`startParam`) and keeps the token
 * the last page gives (`nextTokenMeta`).
 */
export interface TokenIncremental {
  startToken: { entity: string; action: ActionName; field: string; params?: Record<string, unknown> };
  startParam: string;
  nextTokenMeta: string;
}

export interface ConnectorDefinition {
  /** Connector type id, e.g. `chat`. */
  type: string;
  displayName: string;
  /**
   * An SVG image of the connector, shown by the widget beside its templates: a `data:image/svg+xml`
   * URI, or an `.svg` file's absolute path or file URL (e.g. `new URL('./icon.svg', import.meta.url).href`).
   */
  icon?: string;
  /** The connector's release, shown in the hosted server's start-up log (else its package's version when loaded by package name). */
  version?: string;
  auth: ConnectorAuth;
  defaultBaseUrl: string;
  transport: TransportSettings;
  pagination?: PaginationSettings;
  /** Schema of the hosted `replication_config` for this connector type, when it has one. */
  replicationConfig?: JsonSchema;
  /**
   * Schema of an instance's configuration, for a connector configured rather than given credentials
   * (an Airbyte manifest, whose spec says where the API key or OAuth client goes): its `auth` then
   * declares no kind, and an instance is made with `config`.
   */
  config?: JsonSchema;
  actions: ActionDefinition[];
  /** The call that checks credentials; without one, credentials are stored unchecked. */
  check?: CredentialCheck;
  /** Fills the context store that `search` actions read; required when the connector declares one. */
  replicate?: ReplicateFunction;
  /** Sync streams' settings by entity (see SyncStreamSettings); an entity named here is a stream. */
  syncStreams?: Record<string, SyncStreamSettings>;
}
