import { isAbsolute } from 'node:path';
import {
  ACTION_NAMES,
  AUTH_KINDS,
  type AuthKind,
  type ActionDefinition,
  type ActionHooks,
  type ConnectorDefinition,
  type UpstreamCall,
  type UpstreamErrorSettings,
} from '../sdk/index.ts';
import { FieldCatalog } from '../hosted/context-store/field-catalog.ts';
import { unknownFields } from './unknown-fields.ts';
import { isObject, isStringList, isStringMap } from './value-shapes.ts';

/** Names a connector entity may not take, because the connector client uses them itself. */
export const RESERVED_ENTITY_NAMES = ['execute', 'paginate', 'type', 'definition', 'then'];

const IDENTIFIER = /^[a-z][a-z0-9_-]*$/;

const HOOK_NAMES = ['prepareParams', 'transformResponse', 'fileName', 'run'] as const satisfies ReadonlyArray<keyof ActionHooks>;

/** `{name}` placeholders of a request path, filled from the params of that name. */
const PLACEHOLDER = /\{(\w+)\}/g;

export interface DefinitionCheckOptions {
  /** The runtime serves the actions itself (an Airbyte manifest's reads): they declare no upstream call. */
  servedByRuntime?: boolean;
}

/**
 * Structural checks of a connector definition, run at load so a malformed plugin fails at once with
 * every problem listed, not at its first execute. Schemas are compiled separately.
 */
export function checkDefinition(candidate: unknown, options: DefinitionCheckOptions = {}): string[] {
  if (candidate === null || typeof candidate !== 'object') return ['the module must export a connector definition (default export or `connector`)'];
  const def = candidate as Partial<ConnectorDefinition>;
  const problems: string[] = unknownFields(candidate as Record<string, unknown>);
  if (typeof def.type !== 'string' || !IDENTIFIER.test(def.type)) problems.push('`type` must be a lowercase identifier such as "chat"');
  if (typeof def.displayName !== 'string' || def.displayName === '') problems.push('`displayName` must be a non-empty string');
  if (def.icon !== undefined && !isSvgIcon(def.icon))
    problems.push('`icon` must be a data:image/svg+xml URI, or the absolute path or file URL of an .svg file');
  if (def.version !== undefined && (typeof def.version !== 'string' || def.version === '')) problems.push('`version` must be a non-empty string when given');
  if (typeof def.defaultBaseUrl !== 'string' || !/^https?:\/\//.test(def.defaultBaseUrl)) problems.push('`defaultBaseUrl` must be an http(s) URL');
  problems.push(...checkAuth(def.auth, def.config !== undefined), ...checkTransport(def.transport));
  if (def.config !== undefined && (!isObject(def.config) || def.config.type !== 'object')) problems.push('`config` must be a JSON Schema of type object');
  if (def.pagination !== undefined && (typeof def.pagination?.cursorParam !== 'string' || typeof def.pagination?.nextCursorMeta !== 'string')) {
    problems.push('`pagination` needs `cursorParam` and `nextCursorMeta`');
  }
  if (!Array.isArray(def.actions) || def.actions.length === 0) return [...problems, '`actions` must be a non-empty array'];
  const seen = new Set<string>();
  def.actions.forEach((action, index) => {
    const where = `actions[${index}]${action && typeof action === 'object' ? ` (${String(action.entity)}.${String(action.action)})` : ''}`;
    if (!action || typeof action !== 'object') {
      problems.push(`${where} must be an object`);
      return;
    }
    if (typeof action.entity !== 'string' || !IDENTIFIER.test(action.entity)) problems.push(`${where}: \`entity\` must be a lowercase identifier`);
    if (RESERVED_ENTITY_NAMES.includes(action.entity)) problems.push(`${where}: entity name "${action.entity}" is reserved`);
    if (!(ACTION_NAMES as readonly string[]).includes(action.action)) problems.push(`${where}: \`action\` must be one of ${ACTION_NAMES.join(', ')}`);
    const key = `${action.entity}.${action.action}`;
    if (seen.has(key)) problems.push(`${where}: declared twice`);
    seen.add(key);
    if (typeof action.description !== 'string') problems.push(`${where}: \`description\` must be a string`);
    if (!isObject(action.params) || action.params.type !== 'object') problems.push(`${where}: \`params\` must be a JSON Schema of type object`);
    if (!isObject(action.record)) problems.push(`${where}: \`record\` must be a JSON Schema`);
    if (!isObject(action.response) || typeof action.response.records !== 'string')
      problems.push(`${where}: \`response.records\` must be a path string ('' for the whole body)`);
    if (action.response?.meta !== undefined && !isObject(action.meta)) problems.push(`${where}: \`meta\` schema is required when \`response.meta\` is set`);
    if (!isStringMap(action.response?.meta)) problems.push(`${where}: \`response.meta\` must map names to path strings`);
    if (action.paginated) {
      if (!def.pagination || !action.response?.meta?.[def.pagination.nextCursorMeta]) {
        problems.push(`${where}: a paginated action needs connector \`pagination\` and a \`response.meta\` entry for its next cursor`);
      } else if (!isObject(action.params?.properties) || !(def.pagination.cursorParam in action.params.properties)) {
        problems.push(`${where}: a paginated action's params must declare the cursor param "${def.pagination.cursorParam}", or page 2 could not be asked for`);
      }
    }
    if (!options.servedByRuntime) problems.push(...checkUpstreamCall(action).map((problem) => `${where}: ${problem}`));
    problems.push(...checkSearchIndex(action, def.replicate).map((problem) => `${where}: ${problem}`));
  });
  if (def.replicate !== undefined && typeof def.replicate !== 'function') problems.push('`replicate` must be a function');
  return [
    ...problems,
    ...checkCredentialCheck(def.check, def.actions, def.transport?.errors, options.servedByRuntime === true),
    ...checkSyncStreams(def.syncStreams, def.actions),
  ];
}

/** An icon the server can serve without knowing where the connector's module lies: inline, or at an absolute place. */
function isSvgIcon(icon: unknown): boolean {
  if (typeof icon !== 'string') return false;
  return /^data:image\/svg\+xml[;,]/.test(icon) || (/\.svg$/i.test(icon) && (icon.startsWith('file:') || isAbsolute(icon)));
}

/** Sync streams name entities with a `list`, and parents that are streams too (their own settings, or a list that needs no params). */
function checkSyncStreams(streams: unknown, actions: ActionDefinition[]): string[] {
  if (streams === undefined) return [];
  if (!isObject(streams)) return ['`syncStreams` must map entity names to stream settings'];
  const lists = new Map(actions.filter((action) => isObject(action) && action.action === 'list').map((action) => [action.entity, action]));
  const isStream = (entity: string) => entity in streams || ((lists.get(entity)?.params.required as string[] | undefined) ?? []).length === 0;
  const problems: string[] = [];
  for (const [entity, settings] of Object.entries(streams)) {
    const where = `syncStreams.${entity}`;
    if (!lists.has(entity)) problems.push(`${where}: "${entity}" has no list action`);
    if (!isObject(settings)) {
      problems.push(`${where} must be an object`);
      continue;
    }
    if (settings.primaryKey !== undefined && !(isStringList(settings.primaryKey) && settings.primaryKey.length > 0))
      problems.push(`${where}.primaryKey must list fields`);
    const parent = settings.parent;
    if (parent !== undefined && (!isObject(parent) || typeof parent.stream !== 'string' || !isStringMap(parent.params))) {
      problems.push(`${where}.parent needs \`stream\` and \`params\` (list param → parent field)`);
    } else if (parent !== undefined && (!lists.has(parent.stream as string) || !isStream(parent.stream as string))) {
      problems.push(`${where}.parent: "${String(parent.stream)}" is not a sync stream`);
    }
    const incremental = settings.incremental;
    if (
      incremental !== undefined &&
      !(
        isObject(incremental) &&
        typeof incremental.startParam === 'string' &&
        (typeof incremental.cursorField === 'string' || isObject(incremental.startToken))
      )
    ) {
      problems.push(`${where}.incremental needs \`startParam\` and a \`cursorField\` or a \`startToken\``);
    }
  }
  return problems;
}

/** A search reads what replication stored: it declares what is kept (`searchIndex`), and the connector how to fill it. */
function checkSearchIndex(action: ActionDefinition, replicate: unknown): string[] {
  if (action.action !== 'search') {
    return action.searchIndex === undefined ? [] : ['`searchIndex` belongs to search actions only'];
  }
  const index = action.searchIndex;
  if (!isObject(index)) return ['a search action declares `searchIndex` (use defineSearchAction(entity, index))'];
  const problems: string[] = [];
  if (!isObject(index.document) || !isObject(index.document.properties)) problems.push('`searchIndex.document` must be a JSON Schema with properties');
  if (!(typeof index.id === 'string' || (isStringList(index.id) && index.id.length > 0))) problems.push('`searchIndex.id` must name a field or fields');
  if (!isStringList(index.textFields)) problems.push('`searchIndex.textFields` must list field paths');
  if (index.substringFields !== undefined && !isStringList(index.substringFields)) problems.push('`searchIndex.substringFields` must list field paths');
  if (index.indexedFields !== undefined && !isStringList(index.indexedFields)) problems.push('`searchIndex.indexedFields` must list field paths');
  if (problems.length === 0) {
    try {
      new FieldCatalog(action.entity, index);
    } catch (error) {
      problems.push(`\`searchIndex\`: ${(error as Error).message}`);
    }
  }
  if (replicate === undefined) problems.push("a search action needs the connector's `replicate` function, which fills the context store");
  return problems;
}

/**
 * The credential check runs before anything is stored, so it must name a declared read that calls
 * the upstream: a write would change something for a credential that may be refused, and a download
 * would stream bytes nobody reads. Its params are checked against the action's schema when compiled.
 */
function checkCredentialCheck(
  check: unknown,
  actions: ActionDefinition[],
  errors: Partial<UpstreamErrorSettings> | undefined,
  servedByRuntime: boolean,
): string[] {
  if (check === undefined) return [];
  if (!isObject(check)) return ['`check` must be an object: {entity, action, params?, rejectedCodes}'];
  const problems: string[] = [];
  const action = actions.find((candidate) => isObject(candidate) && candidate.entity === check.entity && candidate.action === check.action);
  if (!action) {
    problems.push(`\`check\` names ${String(check.entity)}.${String(check.action)}, which is not a declared action`);
  } else if (
    action.hostedOnly ||
    action.action === 'download' ||
    !(servedByRuntime ? action.idempotent : isObject(action.request) && (action.idempotent ?? action.request.method === 'GET'))
  ) {
    problems.push(
      `\`check\` must name a read action that calls the upstream (no write, download or hosted-only action); ${action.entity}.${action.action} is not one`,
    );
  }
  if (check.params !== undefined && !isObject(check.params)) problems.push('`check.params` must be an object');
  if (!isStringList(check.rejectedCodes) || check.rejectedCodes.length === 0) {
    problems.push('`check.rejectedCodes` must list the upstream codes that mean a refused credential');
  } else {
    // A rate limit or a passing failure says nothing about the credential: it must never read as a refusal.
    const passing = [errors?.rateLimitCodes, errors?.transientCodes].flatMap((codes) => (isStringList(codes) ? codes : []));
    const overlap = (check.rejectedCodes as string[]).filter((code) => passing.includes(code));
    if (overlap.length > 0)
      problems.push(`\`check.rejectedCodes\` lists ${overlap.join(', ')}, declared in transport.errors as a rate limit or a passing failure`);
  }
  return problems;
}

/**
 * How the action reaches the upstream: its declared `request`, or its `run` hook in its place. A
 * hosted-only action does not; its hooks are still checked.
 */
function checkUpstreamCall(action: ActionDefinition): string[] {
  const problems = checkHooks(action.hooks, action.action);
  if (action.hostedOnly) return problems;
  // A download's `run` is refused by checkHooks; its request is still checked.
  const runs = action.action !== 'download' && isObject(action.hooks) && typeof action.hooks.run === 'function';
  if (!runs) problems.push(...checkRequest(action.request, action.params));
  else if (action.request !== undefined) problems.push('`hooks.run` takes the place of `request`: declare one of them, not both');
  return problems;
}

/** Hooks are functions under known names, each where it can run: `fileName` beside a download, `run` in place of any other call. */
function checkHooks(hooks: unknown, action: string): string[] {
  if (hooks === undefined) return [];
  if (!isObject(hooks)) return [`\`hooks\` must be an object of functions (${HOOK_NAMES.join(', ')})`];
  const problems = Object.keys(hooks)
    .filter((name) => !(HOOK_NAMES as readonly string[]).includes(name))
    .map((name) => `unknown hook "${name}"; known: ${HOOK_NAMES.join(', ')}`);
  for (const name of HOOK_NAMES) {
    if (hooks[name] !== undefined && typeof hooks[name] !== 'function') problems.push(`\`hooks.${name}\` must be a function`);
  }
  if (action === 'download' && hooks.run !== undefined) problems.push("`hooks.run` cannot serve a download: a download streams its `request`'s body");
  if (action !== 'download' && hooks.fileName !== undefined) problems.push('`hooks.fileName` is for download actions only');
  return problems;
}

function checkRequest(call: Partial<UpstreamCall> | undefined, params: unknown): string[] {
  if (!isObject(call) || !['GET', 'POST'].includes(call.method as string) || typeof call.path !== 'string' || !call.path.startsWith('/')) {
    return ['`request` needs method GET or POST and a path starting with "/"'];
  }
  const problems: string[] = [];
  if (call.body !== undefined && !['json', 'form'].includes(call.body)) problems.push('`request.body` must be "json" or "form"');
  if (!isStringMap(call.headerParams)) problems.push('`request.headerParams` must map header names to param names');
  // A placeholder no param fills would reach the upstream as the text "undefined".
  const declared = isObject(params) && isObject(params.properties) ? params.properties : {};
  for (const [, name] of call.path.matchAll(PLACEHOLDER)) {
    if (!Object.hasOwn(declared, name!)) problems.push(`\`request.path\` placeholder {${name}} matches no property of the params schema`);
  }
  if (
    call.defaults !== undefined &&
    (!isObject(call.defaults) || !Object.values(call.defaults).every((v) => ['string', 'number', 'boolean'].includes(typeof v)))
  ) {
    problems.push('`request.defaults` must map param names to strings, numbers or booleans');
  }
  return problems;
}

/** A configured connector (`config`) may declare no auth kind: its configuration carries whatever the upstream takes. */
function checkAuth(auth: ConnectorDefinition['auth'] | undefined, configured: boolean): string[] {
  if (!isObject(auth)) return ['`auth` must map auth kinds (oauth, token) to header rules, and may declare `oauth2`'];
  const kinds = Object.keys(auth).filter((key) => key !== 'oauth2');
  const problems = kinds
    .filter((kind) => !(AUTH_KINDS as readonly string[]).includes(kind))
    .map((kind) => `unknown auth kind "${kind}"; allowed: ${AUTH_KINDS.join(', ')}, oauth2`);
  if (kinds.length === 0 && !configured) problems.push('`auth` must declare at least one auth kind (or the connector a `config` schema)');
  for (const kind of kinds) {
    const rule = auth[kind as AuthKind];
    if (!rule || typeof rule.header !== 'string' || rule.header === '') problems.push(`auth.${kind} needs a \`header\``);
  }
  if (auth.oauth2 !== undefined) problems.push(...checkOAuth2(auth));
  return problems;
}

/** The OAuth flow needs the `oauth` header rule (its access token travels by it), both URLs and a sign of expiry. */
function checkOAuth2(auth: ConnectorDefinition['auth']): string[] {
  const flow = auth.oauth2;
  if (!isObject(flow)) return ['`auth.oauth2` must be an object'];
  const problems: string[] = [];
  if (!auth.oauth) problems.push('`auth.oauth2` needs `auth.oauth`, the header rule its access tokens travel by');
  if (typeof flow.providerName !== 'string' || flow.providerName.trim() === '') problems.push('auth.oauth2.providerName must name the provider');
  for (const key of ['authorizeUrl', 'tokenUrl'] as const) {
    if (typeof flow[key] !== 'string' || !URL.canParse(flow[key]) || !/^https?:$/.test(new URL(flow[key]).protocol)) {
      problems.push(`auth.oauth2.${key} must be an http(s) URL`);
    }
  }
  if (!Array.isArray(flow.scopes) || !flow.scopes.every((scope) => typeof scope === 'string')) problems.push('auth.oauth2.scopes must be an array of strings');
  if (flow.authorizeParams !== undefined && !isStringMap(flow.authorizeParams)) problems.push('auth.oauth2.authorizeParams must map names to strings');
  const expired = flow.expiredToken;
  if (!isObject(expired) || (expired.status === undefined && !Array.isArray(expired.codes))) {
    problems.push('auth.oauth2.expiredToken must name the `codes` or the `status` by which the API says an access token expired');
  }
  return problems;
}

function checkTransport(transport: ConnectorDefinition['transport'] | undefined): string[] {
  if (!isObject(transport)) return ['`transport` settings are required'];
  const problems: string[] = [];
  for (const key of ['timeoutMs', 'maxRetries', 'maxRetryAfterSeconds'] as const) {
    if (typeof transport[key] !== 'number' || transport[key] < 0) problems.push(`transport.${key} must be a non-negative number`);
  }
  if (transport.streamIdleTimeoutMs !== undefined && (typeof transport.streamIdleTimeoutMs !== 'number' || transport.streamIdleTimeoutMs <= 0)) {
    problems.push('transport.streamIdleTimeoutMs must be a positive number');
  }
  if (!isObject(transport.errors) || typeof transport.errors.codePath !== 'string' || !isObject(transport.errors.statusByCode)) {
    problems.push('transport.errors needs `codePath` and `statusByCode`');
  } else {
    for (const key of ['rateLimitCodes', 'transientCodes'] as const) {
      if (transport.errors[key] !== undefined && !isStringList(transport.errors[key])) problems.push(`transport.errors.${key} must be a list of strings`);
    }
    if (transport.errors.failureInBody !== undefined && typeof transport.errors.failureInBody !== 'function') {
      problems.push('transport.errors.failureInBody must be a function: body => whether it reports a failure');
    }
  }
  return problems;
}
