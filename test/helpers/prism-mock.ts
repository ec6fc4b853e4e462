import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AIRBYTE_CONFIG_SPEC } from './public-api-spec.ts';
import { AIRBYTE_PUBLIC_SPEC, AIRBYTE_TOKEN_SPEC, loadSharedSpec } from './shared-specs.ts';

/**
 * Stoplight Prism (`@stoplight/prism-cli`, a devDependency) as a mock server of an OpenAPI document,
 * in a child process. Prism validates every request against the document (parameters, headers,
 * security, body): an invalid one is answered with the operation's 400/422 response if it declares
 * one, else a generated 422, and the log says `Violation: request...`. Answers are the document's
 * static examples (no `--dynamic`), else bodies Prism generates from the schemas without randomness.
 *
 * `--errors` is left off on purpose: it also turns every *response* violation into a 500, and the
 * official documents' own examples do not always satisfy their schemas (the workspace example has no
 * `notifications`), so it would fail on the document's data rather than on the client's requests.
 * Request violations are 4xx either way; the log is kept and checked as well (`takeProblems`).
 */

const PRISM = fileURLToPath(new URL('../../node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url));

export interface PrismLogProblem {
  /** The request the log was about, `POST /sources`. */
  request: string;
  line: string;
}

export interface PrismMock {
  /** `http://127.0.0.1:<port>`: the document's paths are served from the root (its `servers` are ignored). */
  readonly url: string;
  /** Prism's output so far (stdout and stderr, in order). */
  log(): string;
  /**
   * Problems with requests logged since the last call (request violations, refused security,
   * requests Prism ended with an error), up to a mark request this call sends.
   */
  takeProblems(): Promise<PrismLogProblem[]>;
  /** Response violations logged so far: the document's examples against its schemas (informative only). */
  responseViolations(): PrismLogProblem[];
  stop(): Promise<void>;
}

export interface PrismMockOptions {
  /** How long Prism may take to load the document and listen (default 90 s; a 3 MB document takes ~6 s). */
  startTimeoutMs?: number;
}

/** Starts `prism mock <document> --host 127.0.0.1 --port <free port>` and resolves once it listens. */
export async function startPrismMock(document: string, options: PrismMockOptions = {}): Promise<PrismMock> {
  const port = await freePort();
  // No colours (plain lines to parse); no proxy: a local document needs no network at all.
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  const child = spawn(process.execPath, [PRISM, 'mock', document, '--host', '127.0.0.1', '--port', String(port)], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = new PrismLog(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await log.waitFor(`Prism is listening on ${url}`, exited, options.startTimeoutMs ?? 90_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    log: () => log.text,
    takeProblems: () => log.takeProblems(url),
    responseViolations: () => log.responseViolations(),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A port nobody listens on now (Prism takes it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes, in case a terminal asked for colours anyway.
const ANSI = /\u001b\[[0-9;]*m/g;
/** `[HTTP SERVER] post /sources ℹ  info      Request received`: a request starts. */
const REQUEST_RECEIVED = /\[HTTP SERVER\] (\w+) (\S+) .*Request received/;
/** What a request Prism found invalid (or refused) leaves in the log. */
const REQUEST_PROBLEM = /Violation: request|Request did not pass the validation rules|Request terminated with error|Invalid security scheme|\[VALIDATOR\].*✖/;
const RESPONSE_VIOLATION = /Violation: response/;
/** The path of the requests that mark a point in the log (`takeProblems`). */
const LOG_MARK = '/__plugboard_log_mark_';

class PrismLog {
  text = '';
  #lines: Array<{ request: string; line: string }> = [];
  #partial = '';
  #current = '(before any request)';
  #taken = 0;
  #marks = 0;

  constructor(child: ChildProcess) {
    const onData = (chunk: Buffer) => this.add(chunk.toString());
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
  }

  private add(chunk: string): void {
    const text = chunk.replace(ANSI, '');
    this.text += text;
    const lines = (this.#partial + text).split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) {
      const received = REQUEST_RECEIVED.exec(line);
      if (received) this.#current = `${received[1]!.toUpperCase()} ${received[2]!}`;
      this.#lines.push({ request: this.#current, line: line.trim() });
    }
  }

  async waitFor(text: string, exited: Promise<void>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let ended = false;
    void exited.then(() => (ended = true));
    while (!this.text.includes(text)) {
      if (ended) throw new Error(`prism exited before listening:\n${this.text.slice(-4000)}`);
      if (Date.now() > deadline) throw new Error(`prism did not listen within ${timeoutMs} ms:\n${this.text.slice(-4000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * Prism writes its log in order, on stdout alone, so once the log shows a mark request (a path no
   * document has) everything the earlier requests logged before answering is in. A quiet spell alone
   * was not enough: on a loaded machine a oneOf violation's thousands of lines arrived in bursts.
   */
  async takeProblems(url: string): Promise<PrismLogProblem[]> {
    const mark = `${LOG_MARK}${++this.#marks}`;
    await fetch(`${url}${mark}`).then((response) => response.arrayBuffer());
    const deadline = Date.now() + 30_000;
    let end = this.#markIndex(mark);
    while (end < 0) {
      if (Date.now() > deadline) throw new Error(`prism did not log the mark request ${mark}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      end = this.#markIndex(mark);
    }
    const fresh = this.#lines.slice(this.#taken, end);
    this.#taken = end;
    return fresh.filter(({ request, line }) => !request.includes(LOG_MARK) && REQUEST_PROBLEM.test(line) && !RESPONSE_VIOLATION.test(line));
  }

  #markIndex(mark: string): number {
    for (let index = this.#lines.length - 1; index >= this.#taken; index--) {
      if (this.#lines[index]!.request === `GET ${mark}`) {
        // The mark's first line, "Request received": the lines before it belong to earlier requests.
        while (index > this.#taken && this.#lines[index - 1]!.request === `GET ${mark}`) index--;
        return index;
      }
    }
    return -1;
  }

  responseViolations(): PrismLogProblem[] {
    return this.#lines.filter(({ line }) => RESPONSE_VIOLATION.test(line));
  }
}

type Schema = Record<string, any>;
type OpenApiDocument = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, Schema> } };

export interface AirbyteMockDocuments {
  /** api_sdk.yaml, patched as writeAirbyteMockDocuments says, as JSON. */
  publicApi: string;
  /** config.yaml, patched as writeAirbyteMockDocuments says, as JSON. */
  configApi: string;
}

/**
 * The official public and config API documents (found as the other conformance tests find them:
 * `loadSharedSpec`, PLUGBOARD_REQUIRE_SPECS) written into `dir` for Prism, or undefined when they
 * are not on this machine. Neither has a remote `$ref`, so Prism reads nothing from the network.
 * Both copies are patched, each patch below saying why.
 */
export function writeAirbyteMockDocuments(dir: string): AirbyteMockDocuments | undefined {
  const sdk = loadSharedSpec<OpenApiDocument>(AIRBYTE_PUBLIC_SPEC);
  const token = loadSharedSpec<OpenApiDocument>(AIRBYTE_TOKEN_SPEC);
  const config = loadSharedSpec<OpenApiDocument>(AIRBYTE_CONFIG_SPEC);
  if (!sdk || !token || !config) return undefined;
  const schemas = sdk.components.schemas;

  // 1. The token endpoint (client credentials) is in api.yaml, the same API family, not in api_sdk.yaml:
  //    its operation is copied in as is (its two schemas are in api_sdk.yaml already).
  sdk.paths['/applications/token'] = token.paths['/applications/token']!;
  for (const name of ['ApplicationTokenRequestWithGrant', 'PublicAccessTokenResponse']) schemas[name] ??= token.components.schemas[name]!;

  // 2. Two source schemas do not compile under Ajv (README quirk); Prism then silently accepts *any*
  //    source configuration, so they are mended as PublicApiSpec mends them: `source-hellobaton` lists
  //    `api_key` twice in `required`, `source-the-guardian-api` has `\-` in a unicode-mode pattern.
  const hellobaton = schemas['source-hellobaton'];
  if (hellobaton && Array.isArray(hellobaton.required)) hellobaton.required = [...new Set(hellobaton.required as string[])];
  for (const property of Object.values<Schema>(schemas['source-the-guardian-api']?.properties ?? {})) {
    if (typeof property.pattern === 'string') property.pattern = property.pattern.replace(/\\-/g, '-');
  }

  // 3. List pages: the examples of SourcesResponse, DestinationsResponse, WorkspacesResponse give `data`
  //    as one object, not an array (README quirk), and every list example carries a `next` link. A
  //    static mock answers the same page to every offset, so a client paging while `next` is present
  //    would page forever. `data` is wrapped in an array and `next` dropped from the examples, and
  //    `next` is dropped from the schemas' properties, so a page Prism generates has none either (no
  //    change to what validates: these schemas admit any further property).
  for (const schema of Object.values(schemas)) {
    if (schema?.properties?.data?.type !== 'array' || !schema.properties.next) continue;
    if (schema.additionalProperties === false) throw new Error('a list schema closed to further properties: patch 3 would change it');
    delete schema.properties.next;
    const example = schema.example;
    if (example && typeof example === 'object') {
      delete example.next;
      if (!Array.isArray(example.data)) example.data = [example.data];
    }
  }
  for (const operations of Object.values(sdk.paths)) {
    for (const operation of Object.values<any>(operations)) {
      for (const response of Object.values<any>(operation?.responses ?? {})) {
        for (const { value } of Object.values<any>(response?.content?.['application/json']?.examples ?? {})) {
          if (value && typeof value === 'object' && 'data' in value && 'next' in value) {
            delete value.next;
            if (!Array.isArray(value.data)) value.data = [value.data];
          }
        }
      }
    }
  }

  // 4. (config.yaml) Its only security requirement is `{}`, none, though it defines `bearerAuth` and the
  //    real config API wants the same bearer token as the public API. Prism reads `{}` as "no
  //    Authorization header" and answers 401 to any request that has one, so the copy accepts bearerAuth too.
  (config as OpenApiDocument & { security?: unknown[] }).security = [{ bearerAuth: [] }, {}];

  // 5. The public API spells the uuid format "UUID" in 32 places (ids of jobs, connections,
  //    definitions...; PublicApiSpec adds it as an alias). Prism knows only "uuid": it would neither
  //    check such a field of a request nor generate a UUID for it in an answer; a generated id was
  //    "string", which the client then sent back in a path, where the same field is spelled "uuid".
  //    The copies spell it "uuid".
  for (const document of [sdk, config]) renameFormat(document, 'UUID', 'uuid');

  // 6. Many examples do not satisfy their own schemas (README: "trust the schemas"): the job example has
  //    `id` (a UUID string) and no `jobId` or `connectionId`, the connection example no
  //    `connectionId`, `status` or `configurations`, the token example no `token_type`; and Prism
  //    prefers a schema's example to the operation's. A client reading the answer then builds its next
  //    request from a missing field (`DELETE /connections/undefined`). Every example, of an operation's
  //    answer or of a component schema, that its schema rejects is dropped: Prism then answers a body
  //    it generates from the schema, without randomness (ids are UUIDs derived from the property name).
  dropInvalidExamples(sdk);

  const publicApi = join(dir, 'api_sdk.mock.json');
  const configApi = join(dir, 'config.mock.json');
  writeFileSync(publicApi, JSON.stringify(sdk));
  writeFileSync(configApi, JSON.stringify(config));
  return { publicApi, configApi };
}

/** Every `format: from` in the document as `format: to`. */
function renameFormat(node: unknown, from: string, to: string): void {
  if (Array.isArray(node)) for (const item of node) renameFormat(item, from, to);
  else if (node && typeof node === 'object') {
    const object = node as Record<string, unknown>;
    if (object.format === from) object.format = to;
    for (const value of Object.values(object)) renameFormat(value, from, to);
  }
}

/** Drops the component schemas' `example` and the answers' examples that their schemas reject (patch 6). */
function dropInvalidExamples(document: OpenApiDocument): void {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true, logger: false });
  addFormats.default(ajv);
  // Checked against a copy whose connector configurations (a oneOf of every source, of every
  // destination) are any object: compiling those for every answer would take a minute, and an example
  // is kept or dropped for the fields the client reads, not for a connector's settings.
  const checked = structuredClone(document);
  for (const name of ['SourceConfiguration', 'DestinationConfiguration'])
    if (checked.components.schemas[name]) checked.components.schemas[name] = { type: 'object' };
  ajv.addSchema(checked, 'doc');
  const accepts = (pointer: string, value: unknown) => ajv.getSchema(`doc#${pointer}`)!(value) === true;
  const token = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    if (schema && 'example' in schema && !accepts(`/components/schemas/${token(name)}`, schema.example)) delete schema.example;
  }
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries<any>(operations)) {
      for (const [status, response] of Object.entries<any>(operation?.responses ?? {})) {
        const content = response?.content?.['application/json'];
        if (!content?.schema) continue;
        const at = `/paths/${token(path)}/${method}/responses/${status}/content/application~1json/schema`;
        if ('example' in content && !accepts(at, content.example)) delete content.example;
        for (const [name, example] of Object.entries<any>(content.examples ?? {})) {
          if (!accepts(at, example?.value)) delete content.examples[name];
        }
        if (content.examples && Object.keys(content.examples).length === 0) delete content.examples;
      }
    }
  }
}
