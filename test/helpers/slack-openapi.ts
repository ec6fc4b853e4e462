/**
 * Conformance checks against Slack's official Web API spec (slack_web_openapi_v2.notoken.json,
 * Swagger 2.0). Responses are validated with ajv against the spec's own schemas; requests against the
 * declared parameters of the method. Without the spec (see shared-specs.ts) every check answers []
 * and `slackConformance` is false, so a suite can skip what expects a finding.
 *
 * The spec is used as published except for the adjustments listed here, each applied to a deep
 * clone and each because real Slack (and so the sandbox) legitimately answers outside the letter of
 * the spec:
 *  1. `additionalProperties: false` becomes `true`: real responses carry fields the 2020 spec does
 *     not list.
 *  2. Swagger 2.0 has no anyOf/oneOf, so the spec writes unions as an `items` list on schemas that
 *     are not arrays (objs_user, objs_conversation, `tz`, `bot_id`, `channel_actions_ts` ...). Read
 *     literally that constrains nothing, so such `items` lists are read as `anyOf`. This tightens
 *     validation to what the spec evidently means; it relaxes nothing.
 *  3. conversations.history `messages` loses `minItems: 1`: a page whose time range holds no
 *     message is legitimately empty.
 *  4. conversations.replies `messages` is a tuple [parent, reply]; continuation pages (with a
 *     cursor) hold replies only, so each item must be a parent or a reply, and every reply is
 *     checked (the tuple form would check only the second item).
 *  5. chat.update `message.blocks` is typed object; blocks are an array everywhere else in the spec
 *     (definitions.blocks) and in real responses.
 *  6. Error codes that real Slack returns but the 2020 enum of the method lacks are admitted, per
 *     method, in EXTRA_ERROR_CODES below (each one Slack documents for that method today).
 * `minItems`/`uniqueItems` are otherwise kept.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import type { SandboxRequestLogEntry } from '../../connectors/chat/sandbox/index.ts';
import { loadSharedSpec, SLACK_SPEC } from './shared-specs.ts';

// ajv-formats is CommonJS; under NodeNext its default import is the plugin at run time but typed as the module.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as unknown as (ajv: Ajv) => Ajv;

const DEFS_ID = 'https://slack.example/openapi/definitions.json';

/** Errors every method can answer: 429 bodies and transient server failures. */
const GLOBAL_EXTRA_ERROR_CODES = ['ratelimited', 'internal_error'];

const EXTRA_ERROR_CODES: Readonly<Record<string, readonly string[]>> = {
  'conversations.list': ['invalid_cursor', 'invalid_types'],
  // A bot token reads only conversations it is in; Slack answers not_in_channel otherwise.
  'conversations.history': ['invalid_cursor', 'not_in_channel'],
  'conversations.replies': ['invalid_cursor', 'invalid_ts_latest', 'invalid_ts_oldest', 'not_in_channel'],
  'chat.postMessage': ['invalid_json', 'json_not_object', 'invalid_blocks', 'invalid_attachments', 'invalid_thread_ts', 'thread_not_found'],
  'chat.update': ['invalid_blocks', 'invalid_attachments'],
  'reactions.add': ['channel_not_found', 'is_archived'],
};

interface SwaggerParameter {
  name: string;
  in: string;
  type?: string;
  required?: boolean;
  description?: string;
}

interface SwaggerOperation {
  consumes?: string[];
  parameters?: SwaggerParameter[];
  responses: Record<string, { schema?: unknown }>;
}

interface SwaggerSpec {
  paths: Record<string, Partial<Record<'get' | 'post', SwaggerOperation>>>;
  definitions: Record<string, unknown>;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const found = loadSharedSpec<SwaggerSpec>(SLACK_SPEC);
const spec: SwaggerSpec = found ?? { paths: {}, definitions: {} };

/** Whether the spec was found and the checks below mean something. */
export const slackConformance = found !== undefined;

/** Deep clone applying adjustments 1 and 2, and pointing local refs at the shared definitions. */
function adapt(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(adapt);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) out[key] = true;
    else if (key === '$ref' && typeof value === 'string' && value.startsWith('#/definitions/')) out[key] = DEFS_ID + value;
    else out[key] = adapt(value);
  }
  if (Array.isArray(out.items) && out.type !== 'array') {
    out.anyOf = out.items;
    delete out.items;
  }
  return out;
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: DEFS_ID, definitions: adapt(spec.definitions) });

function operation(method: string): SwaggerOperation | undefined {
  const path = spec.paths[`/${method}`];
  return path?.post ?? path?.get;
}

function child(schema: unknown, ...keys: string[]): JsonObject | undefined {
  let node: unknown = schema;
  for (const key of keys) node = isObject(node) ? node[key] : undefined;
  return isObject(node) ? node : undefined;
}

/** Adjustments 3-5, specific to one method's success schema. */
function adjustSuccess(method: string, schema: JsonObject): void {
  if (method === 'conversations.history') {
    const messages = child(schema, 'properties', 'messages');
    if (messages) delete messages.minItems;
  }
  if (method === 'conversations.replies') {
    const messages = child(schema, 'properties', 'messages');
    if (messages && Array.isArray(messages.items)) messages.items = { anyOf: messages.items };
  }
  if (method === 'chat.update') {
    const blocks = child(schema, 'properties', 'message', 'properties', 'blocks');
    if (blocks) blocks.type = 'array';
  }
}

/** Adjustment 6. */
function adjustError(method: string, schema: JsonObject): void {
  const error = child(schema, 'properties', 'error');
  if (error && Array.isArray(error.enum)) {
    const extra = [...GLOBAL_EXTRA_ERROR_CODES, ...(EXTRA_ERROR_CODES[method] ?? [])];
    error.enum = [...new Set([...(error.enum as unknown[]), ...extra])];
  }
}

const validators = new Map<string, ValidateFunction>();

function validatorFor(method: string, kind: 'success' | 'error'): ValidateFunction | undefined {
  const key = `${method} ${kind}`;
  const cached = validators.get(key);
  if (cached) return cached;
  const op = operation(method);
  const raw = op?.responses[kind === 'success' ? '200' : 'default']?.schema;
  if (!isObject(raw)) return undefined;
  const schema = adapt(raw) as JsonObject;
  if (kind === 'success') adjustSuccess(method, schema);
  else adjustError(method, schema);
  const validate = ajv.compile(schema);
  validators.set(key, validate);
  return validate;
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`);
}

/**
 * Problems of a Slack response body against the spec: the 200 schema when `ok` is true, the
 * `default` (error) schema otherwise. An empty list means the body conforms.
 */
export function validateSlackResponse(method: string, body: unknown): string[] {
  if (!slackConformance) return [];
  if (!operation(method)) return [`${method} is not a method of the Slack spec`];
  if (!isObject(body)) return ['body is not a JSON object'];
  const validate = validatorFor(method, body.ok === true ? 'success' : 'error');
  if (!validate) return [`the spec has no ${body.ok === true ? 'success' : 'error'} schema for ${method}`];
  return validate(body) ? [] : describe(validate.errors);
}

const BOOLEAN_STRINGS = new Set(['true', 'false', '1', '0']);

function typeProblem(param: SwaggerParameter, value: unknown, form: SandboxRequestLogEntry['argForm']): string | undefined {
  const type = param.type ?? 'string';
  const fail = `argument "${param.name}" must be ${type === 'integer' ? 'an' : 'a'} ${type}, got ${JSON.stringify(value)}`;
  switch (type) {
    case 'integer':
      if (typeof value === 'number') return Number.isInteger(value) ? undefined : fail;
      return typeof value === 'string' && /^-?\d+$/.test(value) ? undefined : fail;
    case 'number':
      if (typeof value === 'number') return Number.isFinite(value) ? undefined : fail;
      return typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? undefined : fail;
    case 'boolean':
      if (typeof value === 'boolean') return undefined;
      return typeof value === 'string' && BOOLEAN_STRINGS.has(value) ? undefined : fail;
    default:
      if (typeof value === 'string') return undefined;
      // In JSON bodies, arguments the spec calls "JSON-based ... URL-encoded string" (blocks,
      // attachments) are legitimately sent as real JSON structures.
      if (form === 'json' && typeof value === 'object' && value !== null && /JSON/.test(param.description ?? '')) return undefined;
      return fail;
  }
}

/**
 * Problems of a request the sandbox received, against the spec's declared parameters for that
 * method and HTTP verb: query parameters for GET, formData parameters for POST (JSON bodies are
 * checked against the formData list, and only methods that consume JSON may receive one).
 */
export function validateSlackRequest(entry: SandboxRequestLogEntry): string[] {
  if (!slackConformance) return [];
  const path = spec.paths[`/${entry.method}`];
  if (!path) return [`${entry.method} is not a method of the Slack spec`];
  const verb = entry.httpMethod.toLowerCase();
  const op = verb === 'get' ? path.get : verb === 'post' ? path.post : undefined;
  if (!op) return [`${entry.method} is not declared for ${entry.httpMethod}`];
  const problems: string[] = [];
  const location = verb === 'get' ? 'query' : 'formData';
  if (entry.argForm === 'json' && !(op.consumes ?? []).includes('application/json')) {
    problems.push(`${entry.method} does not accept JSON bodies (Slack ignores them for this method)`);
  }
  const params = new Map((op.parameters ?? []).filter((p) => p.in === location).map((p) => [p.name, p]));
  for (const [name, value] of Object.entries(entry.args)) {
    const param = params.get(name);
    if (!param) {
      problems.push(`argument "${name}" is not a declared ${location} parameter of ${entry.method}`);
      continue;
    }
    const problem = typeProblem(param, value, entry.argForm);
    if (problem) problems.push(problem);
  }
  for (const param of params.values()) {
    if (param.required && !(param.name in entry.args)) problems.push(`required argument "${param.name}" is missing`);
  }
  return problems;
}
