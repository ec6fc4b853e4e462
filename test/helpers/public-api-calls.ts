import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { SqliteDriver } from '../../core/stores/sqlite-driver.ts';
import { randomUUID } from 'node:crypto';
import { CHAT_TOKEN } from './chat-fixture.ts';
import { type Backend, bearer, type HostedFixture, startHostedFixture } from './hosted-fixture.ts';
import { type Answer, recordAnswer } from './hosted-openapi.ts';
import type { PublicApiSpec } from './public-api-spec.ts';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface CallOptions {
  body?: unknown;
  token?: string;
  /** `v1` (default), `api/public/v1`, or `api` for the config API (its spec paths start with /v1). */
  prefix?: string;
  /**
   * The body or answer holds a configuration in one of Plugboard's own shapes (`chat`, `file-storage`,
   * `sqlite`), which the official oneOf does not list: problems inside `configuration` are left to the
   * caller, who checks it against Plugboard's schema; the rest is checked against the official operation.
   */
  extension?: boolean;
  /** Problems of the official check left out (a Plugboard type name the official enum of OAuth source names does not list). */
  ignore?: RegExp;
}

export interface CallAnswer {
  status: number;
  // A JSON answer, asserted on by the tests.
  body: any;
}

/** Problems inside a configuration: `/configuration...` or `/data/<i>/configuration...`. */
const IN_CONFIGURATION = /^\/(data\/\d+\/)?configuration(\/|\s)/;

/**
 * A caller of the public cloud API (and its config API's checks) whose every request body and every
 * successful answer is checked against Airbyte's official description of the operation; failures
 * must be problem details (the config API's: JSON).
 */
export function publicApiCalls(fx: HostedFixture, spec: PublicApiSpec, token: () => string) {
  return async function call(method: Method, specPath: string, path: string, options: CallOptions = {}): Promise<CallAnswer> {
    const relevant = (problems: string[]) =>
      problems.filter((problem) => !(options.extension && IN_CONFIGURATION.test(problem)) && !options.ignore?.test(problem));
    if (options.body !== undefined) expect(relevant(spec.requestProblems(method, specPath, options.body)), `${method} ${specPath} request`).toEqual([]);
    const prefix = options.prefix ?? 'v1';
    const response = await fx.http(`${prefix}${path}`, {
      method: method.toUpperCase() as 'GET',
      headers: bearer(options.token ?? token()),
      ...(options.body === undefined ? {} : { json: options.body }),
    });
    const body = response.body.length > 0 ? JSON.parse(response.body) : undefined;
    if (response.statusCode < 300) {
      expect(relevant(spec.responseProblems(method, specPath, response.statusCode, body)), `${method} ${specPath} answer`).toEqual([]);
    } else {
      expect(response.headers['content-type'], response.body).toMatch(prefix === 'api' ? /^application\/json/ : /^application\/problem\+json/);
    }
    return { status: response.statusCode, body };
  };
}

/**
 * Compiles the official schemas of these operations (`METHOD /path`) up front: the sources' and
 * destinations' configuration oneOf takes seconds, which would otherwise block the event loop in the
 * middle of a test, the server in it, long enough for idle keep-alive sockets to be reset.
 */
export function compileOperations(spec: PublicApiSpec, operations: string[]): void {
  for (const operation of operations) {
    const [method, path] = operation.split(' ') as [Method, string];
    if (method === 'post' || method === 'patch' || method === 'put') spec.requestProblems(method, path, {});
    if (method !== 'delete') spec.responseProblems(method, path, 200, {});
  }
}

/**
 * No secret in clear where it must not be: the server's log, the cloud API's tables, and (SQLite)
 * the database file and its write-ahead log as bytes.
 */
export async function expectNowhereInClear(fx: HostedFixture, secrets: string[]): Promise<void> {
  const { cloudDb } = fx.server.hosted;
  const rows = [];
  for (const table of ['cloud_sources', 'cloud_destinations', 'cloud_connections']) rows.push(...(await cloudDb.all(`SELECT * FROM ${table}`)));
  const files = cloudDb instanceof SqliteDriver ? [cloudDb.file, `${cloudDb.file}-wal`].filter(existsSync) : [];
  const places = { logs: fx.logs.join('\n'), rows: JSON.stringify(rows), ...Object.fromEntries(files.map((file) => [file, readFileSync(file, 'latin1')])) };
  for (const secret of secrets) for (const [place, text] of Object.entries(places)) expect(text.includes(secret), `${secret} in ${place}`).toBe(false);
}

/** An access token of the public API for application credentials (the fixture's first application's by default). */
export async function publicAccessToken(fx: HostedFixture, credentials = { client_id: fx.clientId, client_secret: fx.clientSecret }): Promise<string> {
  return (await fx.http.post('v1/applications/token', { json: credentials }).json<{ access_token: string }>()).access_token;
}

/** Polls a job until it ends (succeeded, failed or cancelled), through `call`; its last answer. */
export async function settledJob(call: ReturnType<typeof publicApiCalls>, jobId: number) {
  for (let i = 0; i < 600; i++) {
    const { body } = await call('get', '/jobs/{jobId}', `/jobs/${jobId}`);
    if (['succeeded', 'failed', 'cancelled'].includes(body.status)) return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} did not settle`);
}

/**
 * The public API as a script calls it, without the spec's checks: each call expects a success and
 * answers the JSON body. `path` is below the server's root (`v1/sources`, `api/v1/sources/check_connection`).
 */
export async function plainPublicApi(fx: HostedFixture) {
  const access = await publicAccessToken(fx);
  const call = async (method: 'get' | 'post' | 'patch' | 'put', path: string, json?: unknown) => {
    const response = await fx.http[method](path, { headers: bearer(access), ...(json ? { json } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.body ? JSON.parse(response.body) : undefined;
  };
  /** Runs a sync (or another job) of the connection and polls its job until it ends; its last answer. */
  const sync = async (connectionId: string, pollMs = 50, jobType: 'sync' | 'reset' | 'refresh' = 'sync') => {
    const { jobId } = await call('post', 'v1/jobs', { connectionId, jobType });
    for (let polls = 0; polls < 600_000 / pollMs; polls++) {
      const job = await call('get', `v1/jobs/${jobId}`);
      if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job as { jobId: number; status: string };
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    throw new Error(`job ${jobId} did not end`);
  };
  return { call, sync };
}

/** Airbyte's official `source-slack` configuration, reading the chat sandbox with its token. */
export function officialSlackConfiguration(): Record<string, unknown> {
  return {
    sourceType: 'slack',
    credentials: { option_title: 'API Token Credentials', api_token: CHAT_TOKEN },
    start_date: '2024-01-01T00:00:00Z',
    lookback_window: 2,
    join_channels: false,
    channel_filter: ['general'],
  };
}

/**
 * A suite's server on `backend`, an access token and a caller checked against the spec: `operations`
 * compiled first (see compileOperations), every answer recorded in `answers` when given (for the
 * server's own /openapi.json).
 */
export async function startPublicApiSuite(backend: Backend, spec: PublicApiSpec, options: { operations?: string[]; answers?: Answer[] } = {}) {
  compileOperations(spec, options.operations ?? []);
  const fx = await startHostedFixture(backend);
  if (options.answers) fx.http = fx.http.extend({ hooks: { afterResponse: [recordAnswer(options.answers)] } });
  const token = await publicAccessToken(fx);
  return { fx, token, call: publicApiCalls(fx, spec, () => token) };
}

/** Any call of the public API under /v1, unchecked, whatever its status: the status, JSON body and content type. */
export function rawPublicCalls(fx: HostedFixture, token: () => string) {
  return async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, json?: unknown) => {
    const response = await fx.http(`v1${path}`, { method, headers: bearer(token()), ...(json === undefined ? {} : { json }) });
    return { status: response.statusCode, body: JSON.parse(response.body), contentType: response.headers['content-type'] };
  };
}

/** An access token of a new application in a new organization. */
export async function otherOrganizationToken(fx: HostedFixture): Promise<string> {
  const other = await fx.server.hosted.applications.create(`another organization ${randomUUID()}`);
  return publicAccessToken(fx, { client_id: other.client_id, client_secret: other.client_secret });
}
