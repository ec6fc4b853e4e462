/**
 * Seeded fuzzing of every route in /openapi.json: valid requests changed in one place (a path
 * parameter, the query, a body value, the body's framing, the token, the method). Whatever comes
 * in, the server answers a 4xx with a JSON `detail` (problem details on the public cloud API), never a 5xx, and stays up; and every answer is
 * one the document declares, with a body on its schema. The seed is printed;
 * FUZZ_SEED=<n> replays a run (connector and template ids aside, which the fixture draws anew).
 */
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../index.ts';
import { SeededRandom } from '../testing/seeded-random.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { DRIVE_TOKEN } from './helpers/drive-fixture.ts';
import { report, unhandledError, type Failure } from './helpers/fuzz-report.ts';
import { fuzzRequest, variantsFor, type FuzzRequest, type FuzzTarget, type Operation } from './helpers/fuzz-request.ts';
import { baseRequestsFor, type FuzzState } from './helpers/fuzz-base-requests.ts';
import { BACKENDS, bearer, startHostedFixture, TEST_BODY_LIMIT_BYTES, type Backend, type HostedFixture } from './helpers/hosted-fixture.ts';
import { HostedConformance, type Answer } from './helpers/hosted-openapi.ts';
import { sendRaw, type RawResponse } from './helpers/raw-http.ts';
import { SEARCH_LIMITS } from '../core/hosted/context-store/search-cost.ts';
import { MAX_JSON_DEPTH } from '../server/json-depth.ts';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomInt(2 ** 31);
/**
 * Every operation is sent each of its variants once; execute this many times over, each time on
 * other base requests (one per connector action): most of the code behind the routes runs behind it.
 */
const EXECUTE_ROUNDS = 8;
/** Node's HTTP parser answers these before any route runs (server/http-server.ts), whatever the path: they are no operation's. */
const BEFORE_ANY_ROUTE = new Set([408, 431]);
const WORKSPACE = 'fuzz';
const WIDGET_ORIGIN = 'https://app.example';

console.log(`route fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED})`);

describe.each(BACKENDS)('route fuzz on %s', (backend: Backend) => {
  let fx: HostedFixture;
  let operations: Operation[];
  let state: FuzzState;
  let target: FuzzTarget;
  let conformance: HostedConformance;

  beforeAll(async () => {
    fx = await startHostedFixture(backend);
    const operator = await fx.operatorToken();
    const scoped = await fx.scopedToken(WORKSPACE);
    const widget = await fx.http
      .post('api/v1/embedded/widget-token', { headers: bearer(operator), json: { workspace_name: WORKSPACE, allowed_origin: WIDGET_ORIGIN } })
      .json<{ token: string }>();
    const chat = await fx.createConnector(WORKSPACE, 'chat', { token: CHAT_TOKEN }, scoped);
    const files = await fx.createConnector(WORKSPACE, 'file-storage', { access_token: DRIVE_TOKEN }, scoped);
    const template = await fx.http
      .post('api/v1/integrations/templates/sources', { headers: bearer(operator), json: { name: 'fuzz source', connector_type: 'chat', tags: ['fuzz'] } })
      .json<{ id: string }>();
    const runtime = await createRuntime();
    const { fixtures } = fx.driveSandbox.data;
    state = {
      connectors: { chat: chat.id, 'file-storage': files.id },
      credentials: { chat: { token: CHAT_TOKEN }, 'file-storage': { access_token: DRIVE_TOKEN } },
      plugins: [runtime.plugin('chat'), runtime.plugin('file-storage')],
      dictionary: {
        connector_id: [chat.id, files.id],
        client_id: [fx.clientId],
        client_secret: [fx.clientSecret],
        workspace_name: [WORKSPACE],
        allowed_origin: [WIDGET_ORIGIN],
        connector_type: ['chat', 'file-storage'],
        external_user_id: [WORKSPACE],
        source_template_id: [template.id],
        fileId: [fixtures.docId, fixtures.commentedFileId, fx.driveSandbox.largeFileId!],
        channel: fx.chatSandbox.data.channels.slice(0, 3).map((channel) => channel.id),
        // Values the params' patterns ask for, which the sampler does not invent.
        ...Object.fromEntries(['ts', 'timestamp', 'thread_ts', 'latest', 'oldest'].map((name) => [name, ['1700000000.000100']])),
        range_header: ['bytes=0-99'],
        fields: ['*'],
      },
    };
    const { tokens } = fx.server.hosted;
    target = {
      tokens: {
        operatorToken: operator,
        scopedToken: scoped,
        widgetToken: (JSON.parse(Buffer.from(widget.token, 'base64').toString()) as { token: string }).token,
      },
      dangling: {
        operatorToken: await tokens.issueOperatorToken('no-such-client', 'no-such-organization'),
        scopedToken: await tokens.issueScopedToken(fx.server.firstApplication!.organization_id, 'no-such-workspace', 'no-such-application'),
      },
      widgetOrigin: WIDGET_ORIGIN,
      bodyLimitBytes: TEST_BODY_LIMIT_BYTES,
    };
    const doc = JSON.parse((await sendRaw(fx.server.url, { method: 'GET', path: '/openapi.json', headers: {} })).body.toString());
    operations = operationsOf(doc);
    conformance = new HostedConformance(doc);
  });

  afterAll(async () => {
    await fx?.close();
  });

  // Before the fuzzing, which ends by deleting the connectors.
  it('answers every search past one of the cost limits 422 naming it, and every body nested too deep 400', { timeout: 60_000 }, async () => {
    const random = SeededRandom.derive(SEED, 'search limits');
    const path = `/api/v1/connectors/sources/${state.connectors.chat}/execute`;
    const headers = { authorization: `Bearer ${target.tokens.scopedToken}`, 'content-type': 'application/json' };
    const wrong: string[] = [];
    for (let round = 0; round < 40; round += 1) {
      const [entity, textField] = random.pick(TEXT_FIELDS);
      const { query, type } = overLimitSearch(random, textField);
      const body = JSON.stringify({ entity, action: 'search', params: { query, limit: random.int(1, 1000) } });
      const answer = await sendRaw(fx.server.url, { method: 'POST', path, headers, body: Buffer.from(body) });
      const detail = answer.status === 422 ? (JSON.parse(answer.body.toString()) as { detail: { type: string }[] }).detail : [];
      if (!detail.some((issue) => issue.type === type)) wrong.push(`${type} on ${entity}: ${answer.status} ${answer.body.toString().slice(0, 200)}`);
    }
    for (let round = 0; round < 10; round += 1) {
      const depth = random.int(MAX_JSON_DEPTH, 5_000);
      const nested = random.chance(0.5) ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"not":'.repeat(depth)}{}${'}'.repeat(depth)}`;
      const body = `{"entity":"users","action":"search","params":{"query":{"filter":${nested}}}}`;
      const answer = await sendRaw(fx.server.url, { method: 'POST', path, headers, body: Buffer.from(body) });
      if (answer.status !== 400 || !answer.body.toString().includes('"error_code":"body_too_deep"'))
        wrong.push(`${depth} deep: ${answer.status} ${answer.body.toString().slice(0, 200)}`);
    }
    expect(wrong, `seed ${SEED}`).toEqual([]);
  });

  it('answers every fuzzed request below 500, every 4xx with a JSON detail, and stays healthy', { timeout: 120_000 }, async () => {
    expect(operations.length).toBeGreaterThan(10);
    const failures: Failure[] = [];
    for (const operation of operations) {
      // One stream per operation: a route added to the document doesn't change what the others get.
      const random = SeededRandom.derive(SEED, `${operation.method} ${operation.path}`);
      const bases = baseRequestsFor(operation, state, random);
      const variants = variantsFor(operation);
      const rounds = operation.path.endsWith('/execute') ? EXECUTE_ROUNDS : 1;
      const plan = Array.from({ length: rounds }, () => random.sample(variants, variants.length)).flat();
      for (const [i, variant] of plan.entries()) {
        const request = fuzzRequest(operation, bases[i % bases.length]!, variant, target, random);
        const logsBefore = fx.logs.length;
        const answer = await sendRaw(fx.server.url, request).catch((error: Error) => error);
        const problem =
          problemWith(request, answer) ??
          (answer instanceof Error || BEFORE_ANY_ROUTE.has(answer.status) ? undefined : conformance.problemWith(answerOf(request, answer)));
        if (problem) failures.push({ operation, request, problem, cause: unhandledError(fx.logs.slice(logsBefore)) });
      }
    }
    const health = await sendRaw(fx.server.url, { method: 'GET', path: '/healthz', headers: {} });
    expect(health.status, 'GET /healthz after the fuzzing').toBe(200);
    expect(failures.length, report(failures, target, SEED)).toBe(0);
  });
});

/** Chat entities with a full-text field each, for `fuzzy`. */
const TEXT_FIELDS = [
  ['users', 'real_name'],
  ['channels', 'name'],
  ['channel_messages', 'text'],
] as const;

/** A search over one limit of SEARCH_LIMITS by a random margin (on `id`, and `textField` for fuzzy), and the issue type it must get. */
function overLimitSearch(random: SeededRandom, textField: string): { query: Record<string, unknown>; type: string } {
  const over = (limit: number) => Array.from({ length: limit + random.int(1, limit) }, (_, index) => index);
  const limit = random.pick(['sortKeys', 'likePatterns', 'fuzzyWords', 'inValues', 'conditions'] as const);
  const type = `value_error.too_many_${limit.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`;
  const id = (index: number) => `${random.hex(4)}${index}`;
  switch (limit) {
    case 'sortKeys':
      return { type, query: { sort: over(SEARCH_LIMITS.sortKeys).map(() => ({ id: random.pick(['asc', 'desc']) })) } };
    case 'likePatterns':
      return { type, query: { filter: { or: over(SEARCH_LIMITS.likePatterns).map((index) => ({ like: { id: `%${id(index)}%` } })) } } };
    case 'fuzzyWords': {
      // 16 words at most per fuzzy: the words are spread over several.
      const words = over(SEARCH_LIMITS.fuzzyWords).map(id);
      const fuzzies = Array.from({ length: Math.ceil(words.length / 16) }, (_, index) => words.slice(index * 16, index * 16 + 16).join(' '));
      return { type, query: { filter: { and: fuzzies.map((text) => ({ fuzzy: { [textField]: text } })) } } };
    }
    case 'inValues': {
      const values = over(SEARCH_LIMITS.inValues).map(id);
      return {
        type,
        query: { filter: { or: [values.slice(0, 1000), values.slice(1000)].filter((part) => part.length > 0).map((part) => ({ in: { id: part } })) } },
      };
    }
    case 'conditions':
      return { type, query: { filter: { or: over(SEARCH_LIMITS.conditions).map((index) => ({ eq: { id: id(index) } })) } } };
  }
}

/** The operations of an OpenAPI document, those that delete last (the rest keep their connectors to work on). */
function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, spec]) => ({
      method,
      path,
      pathParams: (spec.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
      auth: (spec.security ?? []).flatMap((scheme) => Object.keys(scheme)),
      ...(spec.requestBody ? { bodySchema: componentOf(doc, spec.requestBody.content['application/json']!.schema) } : {}),
    })),
  );
  return operations.sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

/** A body schema is a `$ref` to its component; request bodies refer to nothing further. */
function componentOf(doc: OpenApiDocument, schema: Record<string, unknown>): Record<string, unknown> {
  const name = String(schema.$ref).replace('#/components/schemas/', '');
  const component = doc.components.schemas[name];
  if (!component) throw new Error(`no component for ${JSON.stringify(schema)}`);
  return component;
}

interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string }>;
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
}

/** What is wrong with the answer to `request`, or undefined when nothing is. */
function problemWith(request: FuzzRequest, answer: RawResponse | Error): string | undefined {
  if (answer instanceof Error) return `no answer: ${answer.message}`;
  const text = answer.body.toString();
  if (answer.status >= 500 && !isDeclaredUnavailable(answer.status, text)) return `${answer.status} ${text.slice(0, 200)}`;
  if (answer.status < 400 || request.method === 'HEAD') return undefined;
  // The OAuth callback, where end users' browsers land, answers a page to a client that asks for HTML.
  const page = /\/oauth\/callback$/.test(request.path.split('?')[0]!) && /text\/html/.test(String(request.headers.accept ?? ''));
  if (page && /^text\/html/.test(String(answer.headers['content-type']))) return undefined;
  // The public cloud API answers problem details (application/problem+json), also with a string `detail`.
  if (!/^application\/(problem\+)?json/.test(String(answer.headers['content-type'])))
    return `${answer.status} with Content-Type ${answer.headers['content-type']}: ${text.slice(0, 200)}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${answer.status} whose body is not JSON: ${text.slice(0, 200)}`;
  }
  return isErrorDetail((body as { detail?: unknown } | null)?.detail) ? undefined : `${answer.status} without a valid detail: ${text.slice(0, 200)}`;
}

function answerOf(request: FuzzRequest, response: RawResponse): Answer {
  const contentType = response.headers['content-type'];
  return { method: request.method, path: request.path.split('?')[0]!, status: response.status, contentType, body: response.body };
}

/** The one 5xx by design: a search action, which needs the context store this server does not run yet, is a 501. */
function isDeclaredUnavailable(status: number, text: string): boolean {
  return status === 501 && text.includes('"error_code":"context_store_unavailable"');
}

function isErrorDetail(detail: unknown): boolean {
  if (typeof detail === 'string') return true;
  const isIssue = (issue: { loc?: unknown; msg?: unknown; type?: unknown }) =>
    Array.isArray(issue?.loc) && typeof issue.msg === 'string' && typeof issue.type === 'string';
  return Array.isArray(detail) && detail.every(isIssue);
}
