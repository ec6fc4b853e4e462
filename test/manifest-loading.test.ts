import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConnectorLoadError } from '../core/errors.ts';
import {
  type DeclarativeStream,
  type HttpRequester,
  loadManifest,
  ManifestLoadError,
  MAX_RESOLVED_VALUES,
  manifestSpec,
  SUPPORTED_COMPONENTS,
  type SessionTokenAuthenticator,
} from '../core/manifests/index.ts';
import { formatReport, reportOnManifests } from '../core/manifests/manifest-report.ts';

/**
 * Loading Airbyte declarative manifests (core/manifests): references, `$parameters`, default types,
 * short names, versions, the supported components, the spec. The manifests are written for these tests
 * (test/fixtures/manifests, and inline). PLUGBOARD_MANIFEST_SAMPLE=<dir> also loads a directory of real
 * manifests and logs the report.
 */

const FIXTURES = join(import.meta.dirname, 'fixtures', 'manifests');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

const SPEC = { type: 'Spec', connection_specification: { type: 'object', properties: {} } };

/** A minimal stream: a GET of `path` whose body is the list of records. */
function stream(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'DeclarativeStream',
    name,
    schema_loader: { type: 'InlineSchemaLoader', schema: {} },
    retriever: {
      type: 'SimpleRetriever',
      requester: { type: 'HttpRequester', url_base: 'https://api.example.com/', path: name },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] } },
    },
    ...extra,
  };
}

/** A manifest of the streams given (default: one `items` stream), checked on the first. */
function manifest(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const streams = (fields.streams as Array<Record<string, unknown>> | undefined) ?? [stream('items')];
  return {
    version: '6.44.0',
    type: 'DeclarativeSource',
    check: { type: 'CheckStream', stream_names: [String(streams[0]?.name ?? 'items')] },
    streams,
    spec: SPEC,
    ...fields,
  };
}

function loadError(source: string | object): unknown {
  try {
    loadManifest(source, { name: 'test' });
  } catch (error) {
    return error;
  }
  throw new Error('the manifest loaded');
}

function problemsOf(source: string | object): string[] {
  const error = loadError(source);
  if (error instanceof ManifestLoadError) return error.problems;
  throw error;
}

describe('loading a manifest: references', () => {
  it('resolves `$ref` mappings (own keys win), `#/` string values, any path, refs to refs, keys with a slash', () => {
    const loaded = loadManifest({
      ...manifest(),
      definitions: {
        requester: { type: 'HttpRequester', url_base: 'https://api.example.com/', path: 'from-definition', http_method: 'GET' },
        alias: '#/definitions/requester',
        twice: '#/definitions/alias',
        limits: [10, 20, 30],
        'nested/path': 'the key with a slash',
        nested: { path: 'the nested value' },
      },
      streams: [
        stream('items', {
          retriever: {
            type: 'SimpleRetriever',
            requester: { $ref: '#/definitions/twice', path: 'own-path', request_parameters: { limit: '#/definitions/limits/1' } },
            record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['#/definitions/nested/path'] } },
          },
        }),
      ],
    });
    const requester = loaded.source.streams[0]!.retriever.requester;
    expect(requester).toEqual({
      type: 'HttpRequester',
      url_base: 'https://api.example.com/',
      path: 'own-path',
      http_method: 'GET',
      request_parameters: { limit: 20 },
    });
    expect(loaded.source.streams[0]!.retriever.record_selector.extractor.field_path).toEqual(['the key with a slash']);
    expect(loaded.source).not.toHaveProperty('definitions');
  });

  it('gives each use of a definition its own copy', () => {
    const loaded = loadManifest(fixture('shop.yaml'));
    const [customers, orders] = loaded.source.streams as [DeclarativeStream, DeclarativeStream];
    expect(customers.retriever.requester.path).toBe('customers');
    expect(orders.retriever.requester.path).toBe('customers/{{ stream_partition.customer_id }}/orders');
    expect(customers.retriever.requester.authenticator).not.toBe(orders.retriever.requester.authenticator);
  });

  it('names every reference that names nothing, and cycles with their chain', () => {
    const problems = problemsOf({
      ...manifest(),
      definitions: {
        a: { $ref: '#/definitions/b' },
        b: { inner: '#/definitions/a' },
        self: '#/definitions/self',
      },
      streams: [stream('items', { primary_key: '#/definitions/nothing/here' }), stream('more', { retriever: { $ref: '#/definitions/missing_retriever' } })],
    });
    expect(problems).toEqual([
      'streams[0].primary_key: reference #/definitions/nothing/here names nothing in the manifest',
      'streams[1].retriever.$ref: reference #/definitions/missing_retriever names nothing in the manifest',
      'definitions.a.$ref: circular reference: #/definitions/b → #/definitions/a → #/definitions/b',
      'definitions.b.inner: circular reference: #/definitions/a → #/definitions/b → #/definitions/a',
      'definitions.self: circular reference: #/definitions/self → #/definitions/self',
    ]);
  });

  it('stops a manifest whose references expand without bound', () => {
    // Nine levels of ten references each: 10^9 values once copied in.
    const definitions: Record<string, unknown> = { level0: Array(10).fill('x') };
    for (let level = 1; level < 9; level++) definitions[`level${level}`] = Array(10).fill(`#/definitions/level${level - 1}`);
    const problems = problemsOf({ ...manifest(), definitions });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^definitions\.level\d\[\d\]: /);
    expect(problems[0]).toContain(`the manifest expands to more than ${MAX_RESOLVED_VALUES} values once its references are resolved`);
  });

  it('refuses a `$ref` that is not a `#/` reference', () => {
    expect(problemsOf({ ...manifest(), streams: [{ $ref: 'definitions/items' }] })).toEqual([
      'streams[0].$ref: `$ref` must be a reference such as "#/definitions/<name>", not "definitions/items"',
    ]);
  });
});

describe('loading a manifest: $parameters and default types', () => {
  it('fills name, primary_key and path from $parameters, and keeps the parameters on every component', () => {
    const customers = loadManifest(fixture('shop.yaml')).source.streams[0]!;
    expect(customers.name).toBe('customers');
    expect(customers.primary_key).toBe('id');
    expect(customers.retriever.requester.path).toBe('customers');
    const parameters = { name: 'customers', path: 'customers', primary_key: 'id' };
    expect(customers.$parameters).toEqual(parameters);
    expect(customers.retriever.record_selector.extractor.$parameters).toEqual(parameters);
    expect(customers.retriever.requester.authenticator).toMatchObject({ type: 'BearerAuthenticator', name: 'customers', $parameters: parameters });
  });

  it("gives a child's own keys and own $parameters precedence, a falsy key to the parameter, and keeps a parameter out of the field it names", () => {
    const loaded = loadManifest(
      manifest({
        streams: [
          stream('own-name', {
            primary_key: '',
            $parameters: { name: 'from-parameters', primary_key: 'id', path: 'stream-path', extractor: 'not-passed-down' },
            retriever: {
              type: 'SimpleRetriever',
              requester: { type: 'HttpRequester', url_base: 'https://api.example.com/', $parameters: { path: 'requester-path' } },
              record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] } },
            },
          }),
        ],
      }),
    );
    const items = loaded.source.streams[0]!;
    expect(items.name).toBe('own-name');
    expect(items.primary_key).toBe('id');
    expect(items.retriever.requester.path).toBe('requester-path');
    expect(items.retriever.requester.$parameters).toMatchObject({ path: 'requester-path', name: 'from-parameters' });
    // The selector's own `extractor` wins over the parameter of that name, which the extractor itself does not receive.
    expect(items.retriever.record_selector.extractor.type).toBe('DpathExtractor');
    expect(items.retriever.record_selector.extractor.$parameters).not.toHaveProperty('extractor');
    expect(items.retriever.record_selector.$parameters).toHaveProperty('extractor', 'not-passed-down');
  });

  it('infers the types the CDK infers for components written without one', () => {
    const loaded = loadManifest(fixture('shop.yaml'));
    const [customers, orders] = loaded.source.streams as [DeclarativeStream, DeclarativeStream];
    expect(customers.retriever.type).toBe('SimpleRetriever');
    expect(customers.retriever.record_selector.type).toBe('RecordSelector');
    expect(customers.retriever.record_selector.extractor.type).toBe('DpathExtractor');
    expect(customers.retriever.paginator).toMatchObject({ type: 'DefaultPaginator', page_size_option: { type: 'RequestOption' } });
    expect(customers.incremental_sync).toMatchObject({ start_datetime: { type: 'MinMaxDatetime' }, start_time_option: { type: 'RequestOption' } });
    const errorHandler = customers.retriever.requester.error_handler;
    expect(errorHandler).toMatchObject({
      type: 'CompositeErrorHandler',
      error_handlers: [{ type: 'DefaultErrorHandler', response_filters: [{ type: 'HttpResponseFilter', action: 'IGNORE' }] }, { type: 'DefaultErrorHandler' }],
    });
    const router = orders.retriever.partition_router;
    expect(router).toMatchObject({ type: 'SubstreamPartitionRouter', parent_stream_configs: [{ type: 'ParentStreamConfig', parent_key: 'id' }] });
    expect(orders.transformations).toMatchObject([{ type: 'AddFields', fields: [{ type: 'AddedFieldDefinition' }] }]);
  });

  it('infers DeclarativeStream, CheckStream and Spec at the top, and adds a missing `type: DeclarativeSource`', () => {
    const { type: _, ...withoutType } = manifest({
      check: { stream_names: ['items'] },
      spec: { connection_specification: { type: 'object' } },
      streams: [{ ...stream('items'), type: undefined }],
    });
    const loaded = loadManifest(JSON.parse(JSON.stringify(withoutType)));
    expect(loaded.source.type).toBe('DeclarativeSource');
    expect(loaded.source.check.type).toBe('CheckStream');
    expect(loaded.source.spec.type).toBe('Spec');
    expect(loaded.source.streams[0]!.type).toBe('DeclarativeStream');
  });

  it('leaves JSON schemas and data with a `type` key alone', () => {
    const loaded = loadManifest(fixture('shop.yaml'));
    const reports = loaded.source.streams[2]!;
    expect(reports.retriever.requester.request_body_json).toEqual({ type: 'daily' });
    expect(loaded.source.spec.connection_specification).not.toHaveProperty('$parameters');
  });
});

describe('loading a manifest: short names and schemas', () => {
  it('maps the session token authenticator short names ApiKey and Bearer', () => {
    const reports = loadManifest(fixture('shop.yaml')).source.streams[2]!;
    const authenticator = reports.retriever.requester.authenticator as SessionTokenAuthenticator;
    expect(authenticator.request_authentication).toMatchObject({
      type: 'SessionTokenRequestApiKeyAuthenticator',
      inject_into: { type: 'RequestOption', inject_into: 'header', field_name: 'X-Session' },
    });
    const bearer = loadManifest(
      manifest({
        streams: [
          stream('items', {
            retriever: {
              type: 'SimpleRetriever',
              requester: {
                type: 'HttpRequester',
                url_base: 'https://api.example.com/',
                authenticator: {
                  type: 'SessionTokenAuthenticator',
                  login_requester: { type: 'HttpRequester', url_base: 'https://api.example.com/', path: 'login' },
                  session_token_path: ['token'],
                  request_authentication: { type: 'Bearer' },
                },
              },
              record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] } },
            },
          }),
        ],
      }),
    );
    const requester = bearer.source.streams[0]!.retriever.requester as HttpRequester;
    expect((requester.authenticator as SessionTokenAuthenticator).request_authentication.type).toBe('SessionTokenRequestBearerAuthenticator');
  });

  it('turns a JsonFileSchemaLoader whose schema is in `schemas` into the InlineSchemaLoader of it', () => {
    const loaded = loadManifest(fixture('shop.yaml'));
    const orders = loaded.source.streams[1]!;
    expect(orders.schema_loader).toMatchObject({ type: 'InlineSchemaLoader', schema: loaded.source.schemas?.orders });
    expect(orders.schema_loader).not.toHaveProperty('file_path');
    // Without file_path, the stream name finds the schema.
    const byName = loadManifest(
      manifest({ streams: [stream('items', { schema_loader: { type: 'JsonFileSchemaLoader' } })], schemas: { items: { type: 'object' } } }),
    );
    expect(byName.source.streams[0]!.schema_loader).toEqual({ type: 'InlineSchemaLoader', schema: { type: 'object' } });
  });
});

describe('loading a manifest: what stops it', () => {
  it('reports every unsupported, custom, unknown or misplaced component and missing field at once, each at its place', () => {
    let error: unknown;
    try {
      loadManifest(fixture('unsupported.yaml'), { name: 'unsupported.yaml' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ManifestLoadError);
    expect(error).toBeInstanceOf(ConnectorLoadError);
    const { problems, issues, message } = error as ManifestLoadError;
    expect(problems).toEqual([
      'streams[0].retriever.requester.authenticator: CustomAuthenticator (class_name source_example.components.SignedAuthenticator) is not supported (Python custom components cannot run in Plugboard)',
      'streams[0].retriever.paginator.pagination_strategy: CustomPaginationStrategy (class_name source_example.components.LinkPagination) is not supported (Python custom components cannot run in Plugboard)',
      'streams[1].retriever: AsyncRetriever is not supported by Plugboard',
      'streams[1].schema_loader: JsonFileSchemaLoader is not supported here: it reads the schema file of stream "exports" from a Python package, and the manifest has no `schemas.exports`',
      'streams[2].retriever.record_selector.extractor: DpathExtractor needs `field_path`',
      "streams[2].retriever.paginator.pagination_strategy: TokenBased is not a component type of Airbyte's declarative manifests",
      'streams[2].retriever.paginator.page_size_option: RequestPath cannot stand here: expected a RequestOption',
      'streams[2].retriever.decoder: XmlDecoder is not supported by Plugboard',
      'streams[3]: DeclarativeStream needs `retriever`',
      'streams[3].name: stream name "items" is also the name of streams[2]',
      'check.stream_names[1]: "missing_stream" is not a stream of the manifest',
    ]);
    expect(issues.map((issue) => [issue.kind, issue.component])).toEqual([
      ['custom_component', 'CustomAuthenticator'],
      ['custom_component', 'CustomPaginationStrategy'],
      ['unsupported_component', 'AsyncRetriever'],
      ['unsupported_component', 'JsonFileSchemaLoader'],
      ['invalid', 'DpathExtractor'],
      ['unknown_component', 'TokenBased'],
      ['invalid', 'RequestPath'],
      ['unsupported_component', 'XmlDecoder'],
      ['invalid', 'DeclarativeStream'],
      ['invalid', undefined],
      ['invalid', undefined],
    ]);
    expect(message.split('\n')[0]).toBe('Cannot load declarative manifest "unsupported.yaml":');
  });

  it('refuses fields of supported components that hold what Plugboard does not run', () => {
    expect(
      problemsOf(
        manifest({
          api_budget: { type: 'HTTPAPIBudget', policies: [] },
          streams: [stream('items', { state_migrations: [{ type: 'LegacyToPerPartitionStateMigration' }] })],
        }),
      ),
    ).toEqual([
      'api_budget: HTTPAPIBudget (client-side rate limit policies) is not supported by Plugboard',
      'streams[0].state_migrations: LegacyToPerPartitionStateMigration (state migrations) is not supported by Plugboard',
    ]);
    expect((loadError(manifest({ api_budget: { type: 'HTTPAPIBudget' } })) as ManifestLoadError).issues[0]).toMatchObject({
      kind: 'unsupported_component',
      component: 'HTTPAPIBudget',
    });
    // An empty list of state migrations asks for nothing.
    expect(() => loadManifest(manifest({ streams: [stream('items', { state_migrations: [] })] }))).not.toThrow();
  });

  it('says what a field expects when a component has no type and no default', () => {
    const problems = problemsOf(
      manifest({
        streams: [
          stream('items', {
            retriever: {
              type: 'SimpleRetriever',
              requester: { type: 'HttpRequester', url_base: 'https://api.example.com/', authenticator: { api_token: 'x' } },
              record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] } },
            },
          }),
        ],
      }),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^streams\[0\]\.retriever\.requester\.authenticator: has no `type`: expected an authenticator \(ApiKeyAuthenticator, .*, NoAuth\)$/,
    );
  });
});

describe('loading a manifest: the source itself', () => {
  it.each([
    ['0.29.0', undefined],
    ['4.3.0', undefined],
    ['6.44.0', undefined],
    ['7.28.2', undefined],
    ['6.5.0-dev.1', undefined],
    ['0.28.9', "version: version 0.28.9 is older than 0.29.0, the oldest manifest version Airbyte's CDK still reads"],
    ['8.0.0', 'version: version 8.0.0 is newer than the manifests Plugboard reads (0.29.0 up to 7.x)'],
    ['latest', 'version: `version` "latest" is not a version such as "6.44.0"'],
    [6.4, 'version: `version` must be a string such as "6.44.0", not 6.4'],
    [undefined, 'version: `version` is missing: the CDK version the manifest was written for (0.29.0 up to 7.x)'],
  ])('version %s', (version, problem) => {
    const source = manifest({ version });
    if (problem === undefined) expect(loadManifest(source).version).toBe(version);
    else expect(problemsOf(source)).toEqual([problem]);
  });

  it('refuses another type, text that is not YAML, and YAML that is not a mapping, saying which', () => {
    expect(problemsOf(manifest({ type: 'Source' }))).toEqual(['type: must be DeclarativeSource, not "Source"']);
    expect(problemsOf('version: 6.44.0\nstreams: [\n')[0]).toMatch(/^\(root\): the manifest is not valid YAML: /);
    expect(problemsOf('- a\n- b\n')).toEqual(['(root): a manifest is a mapping (type, version, check, streams, spec…), not a list']);
    expect(problemsOf('')).toEqual(['(root): a manifest is a mapping (type, version, check, streams, spec…), not empty']);
  });

  it("refuses top-level fields that Airbyte's schema does not have", () => {
    expect(problemsOf(manifest({ extra_streams: [] }))).toEqual([
      'extra_streams: is not a field of a declarative manifest (type, version, check, streams, dynamic_streams, spec, schemas, definitions, concurrency_level, api_budget, stream_groups, max_concurrent_async_job_count, metadata, description)',
    ]);
  });

  it('needs check, streams and spec', () => {
    expect(problemsOf({ version: '6.44.0', type: 'DeclarativeSource' })).toEqual([
      '(root): DeclarativeSource needs `check`',
      '(root): DeclarativeSource needs `streams`',
      '(root): DeclarativeSource needs `spec`',
    ]);
  });

  it('reads YAML and JSON text, and objects without changing them', () => {
    const source = manifest();
    const before = JSON.stringify(source);
    expect(loadManifest(JSON.stringify(source)).source.streams[0]!.name).toBe('items');
    expect(loadManifest(source).source.streams[0]!.name).toBe('items');
    expect(JSON.stringify(source)).toBe(before);
  });
});

describe('manifestSpec', () => {
  it('gives the configuration schema, its secrets, the check streams and each stream as an entity', () => {
    const loaded = loadManifest(fixture('shop.yaml'), { name: 'shop' });
    const spec = manifestSpec(loaded);
    expect(spec.configSchema).toBe(loaded.source.spec.connection_specification);
    expect(spec.configSchema.required).toEqual(['credentials', 'start_date']);
    expect(spec.secrets).toEqual([
      ['credentials', 'api_token'],
      ['credentials', 'password'],
      ['webhooks', '*', 'signing_secret'],
    ]);
    expect(spec.documentationUrl).toBe('https://docs.shop.example/api');
    expect(spec.checkStreams).toEqual(['customers']);
    const schemas = loaded.source.schemas!;
    expect(spec.streams).toEqual([
      { name: 'customers', primaryKey: [['id']], schema: schemas.customers, incremental: true, cursorField: 'updated_at', parents: [] },
      { name: 'orders', primaryKey: [['customer_id'], ['id']], schema: schemas.orders, incremental: false, parents: ['customers'] },
      { name: 'reports', primaryKey: [['report', 'id']], schema: schemas.reports, incremental: false, parents: [] },
    ]);
  });

  it('gives an empty schema to a stream without a schema loader, and no key to one without a primary key', () => {
    const { schema_loader: _, ...bare } = stream('items');
    const spec = manifestSpec(loadManifest(manifest({ streams: [bare] })));
    expect(spec.streams[0]).toEqual({ name: 'items', primaryKey: [], schema: {}, incremental: false, parents: [] });
  });
});

describe('the supported components table', () => {
  it('lists the components the interpreter runs, with their kinds and fields', () => {
    expect(Object.keys(SUPPORTED_COMPONENTS)).toEqual(
      expect.arrayContaining([
        'DeclarativeStream',
        'SimpleRetriever',
        'HttpRequester',
        'DatetimeBasedCursor',
        'SubstreamPartitionRouter',
        'OAuthAuthenticator',
      ]),
    );
    expect(SUPPORTED_COMPONENTS.SessionTokenRequestApiKeyAuthenticator.shortName).toBe('ApiKey');
    expect(SUPPORTED_COMPONENTS.DefaultPaginator.components.page_token_option.kinds).toEqual(['request_option', 'request_path']);
  });
});

const sample = process.env.PLUGBOARD_MANIFEST_SAMPLE;
const sampleDir = sample && existsSync(sample) && statSync(sample).isDirectory() ? sample : undefined;
if (!sampleDir) console.log('manifest sample: skipped (set PLUGBOARD_MANIFEST_SAMPLE=<a directory of *.yaml manifests> to load one)');

describe.skipIf(!sampleDir)('a sample of real manifests (PLUGBOARD_MANIFEST_SAMPLE)', () => {
  it('loads them and logs the report', () => {
    const files = readdirSync(sampleDir!)
      .filter((name) => name.endsWith('.yaml'))
      .sort()
      .map((name) => ({ name, text: readFileSync(join(sampleDir!, name), 'utf8') }));
    const report = reportOnManifests(files);
    console.log(formatReport(report, { problemsPerManifest: 1 }));
    expect(report.total).toBe(files.length);
    expect(report.loaded + report.blocked.length).toBe(report.total);
  }, 120_000);
});
