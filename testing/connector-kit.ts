import { type ConnectorDefinition, isManifestPackage, type ManifestPackage } from '../core/sdk/index.ts';
import { type DownloadResult, type ExecuteResult, PlugboardError, Runtime, ValidationError } from '../core/index.ts';
import { startErrorUpstream } from './kit/error-upstream.ts';
import { type KitAction, kitActions, missingParamCases, runnableCalls } from './kit/kit-actions.ts';
import { instanceConfigOf, type KitUpstream } from './kit/kit-upstream.ts';
import { manifestGetCalls } from './kit/manifest-calls.ts';
import { offlineInstanceConfig } from './kit/placeholder-config.ts';

export type { ConfiguredUpstream, CredentialedUpstream, KitUpstream } from './kit/kit-upstream.ts';

export interface ConnectorKitOptions<U extends KitUpstream = KitUpstream> {
  /**
   * The connector: its definition, an Airbyte manifest package (`airbyteManifest(...)`), or a module
   * specifier or path to load as the hosted server would.
   */
  connector: ConnectorDefinition | ManifestPackage | string;
  /**
   * Starts the upstream (once, on the first check that needs it): `{baseUrl, credentials}`, or
   * `{config}` for a configured connector. Without one, nothing runs against an upstream.
   */
  upstream?: () => Promise<U>;
  /**
   * Params to run per `entity.action`, in place of the params schema's `examples` (ids that exist only
   * once the sandbox is seeded; a manifest's `get` otherwise gets the first listed record's id). Given the started upstream.
   */
  calls?: (upstream: U) => Promise<Record<string, Array<Record<string, unknown>>>> | Record<string, Array<Record<string, unknown>>>;
  /** A configured connector's configuration for the offline checks (nothing is called with it). Default: one made from its spec. */
  offlineConfig?: Record<string, unknown>;
  /** `entity.action` → why the kit must not run it against the upstream (it is still checked offline). */
  skipRuns?: Record<string, string>;
  /** Records a paginated list may yield before the kit calls its pagination endless. Default 10,000. */
  maxPaginatedRecords?: number;
}

/** One check, named for a test runner: `for (const check of kit.checks) it(check.name, check.run)`. */
export interface KitCheck {
  name: string;
  run(): Promise<void>;
}

export interface ConnectorKit {
  checks: KitCheck[];
  /** Stops the upstream the kit started; call it after the checks (`afterAll(kit.close)`). */
  close(): Promise<void>;
}

/**
 * The checks every connector gets for free, framework-neutral: the definition loads; each action's
 * params schema accepts its examples and refuses each missing required param with the 422 shape; run
 * against the upstream, records validate against the record schemas (a schema that lies fails) and
 * pagination ends; each upstream error code the connector declares maps to the status it declares.
 * An Airbyte manifest is checked the same way, configured with `config` where others take credentials.
 */
export async function connectorKit<U extends KitUpstream>(options: ConnectorKitOptions<U>): Promise<ConnectorKit> {
  const runtime = new Runtime({ validateRecords: 'throw' });
  let type: string;
  try {
    type = await register(runtime, options.connector);
  } catch (error) {
    const failure = error as Error;
    return { checks: [{ name: 'the definition loads', run: () => Promise.reject(failure) }], close: async () => {} };
  }
  const definition = runtime.plugin(type).definition;
  const upstream = lazyUpstream(options);
  const checks: KitCheck[] = [{ name: 'the definition loads', run: async () => {} }];
  for (const action of kitActions(runtime.plugin(type))) {
    checks.push(...offlineChecks(runtime, type, action, options));
    if (options.upstream && !action.definition.hostedOnly) checks.push(...upstreamChecks(runtime, type, action, upstream, options));
  }
  checks.push(...errorMappingChecks(definition));
  if (definition.check && options.upstream) {
    checks.push({
      name: `the credential check (${definition.check.entity}.${definition.check.action}) accepts the upstream's credentials`,
      run: async () => {
        const outcome = await runtime.connector(type, instanceConfigOf(await upstream.get())).checkCredentials();
        if (outcome !== 'accepted') throw new Error(`checkCredentials() answered ${outcome}`);
      },
    });
  }
  return { checks, close: upstream.close };
}

function register(runtime: Runtime, connector: ConnectorKitOptions['connector']): Promise<string> | string {
  if (typeof connector === 'string') return runtime.loadConnector(connector);
  return isManifestPackage(connector) ? runtime.registerManifest(connector.manifest, connector.type) : runtime.registerConnector(connector);
}

function offlineChecks<U extends KitUpstream>(runtime: Runtime, type: string, action: KitAction, options: ConnectorKitOptions<U>): KitCheck[] {
  const key = `${action.definition.entity}.${action.definition.action}`;
  // A manifest's params schemas are the runtime's: their author has no `examples` to declare.
  const examplesRequired = action.requiredParams.length > 0 && !runtime.plugin(type).manifest;
  const checks: KitCheck[] = [
    {
      name: `${key}: its params schema accepts its examples`,
      run: async () => {
        const examples = action.definition.params.examples;
        if (examples !== undefined && !Array.isArray(examples)) throw new Error(`${key}: params \`examples\` must be an array of params objects`);
        if (!examples?.length && examplesRequired) {
          throw new Error(`${key}: declare \`examples\` in its params schema: at least one params object the action accepts`);
        }
        for (const [index, example] of (examples ?? []).entries()) {
          if (!action.validateParams(example)) throw new Error(`${key}: examples[${index}] is refused: ${JSON.stringify(action.validateParams.errors)}`);
        }
      },
    },
  ];
  // A hosted-only action answers in-process with hosted_mode_only before it reads params: its 422s are the hosted server's to show.
  for (const testCase of action.definition.hostedOnly ? [] : missingParamCases(action)) {
    checks.push({
      name: `${key}: leaving out required param "${testCase.missing}" is a 422`,
      run: async () => {
        const client = runtime.connector(type, offlineInstanceConfig(runtime.plugin(type), options.offlineConfig));
        const error = await client.execute({ entity: action.definition.entity, action: action.definition.action, params: testCase.params }).then(
          () => new Error('the call succeeded'),
          (thrown: unknown) => thrown,
        );
        if (!(error instanceof ValidationError))
          throw new Error(`${key} without "${testCase.missing}": expected a 422 ValidationError, got ${describe(error)}`);
        const issue = error.issues.find((candidate) => candidate.loc.join('.') === `body.params.${testCase.missing}`);
        if (error.status !== 422 || issue?.type !== 'value_error.missing') {
          throw new Error(
            `${key} without "${testCase.missing}": expected an issue at body.params.${testCase.missing} of type value_error.missing, got ${JSON.stringify(error.issues)}`,
          );
        }
      },
    });
  }
  return checks;
}

function upstreamChecks<U extends KitUpstream>(
  runtime: Runtime,
  type: string,
  action: KitAction,
  upstream: LazyUpstream<U>,
  options: ConnectorKitOptions<U>,
): KitCheck[] {
  const { entity, action: name, paginated } = action.definition;
  const key = `${entity}.${name}`;
  const skipped = options.skipRuns?.[key];
  if (skipped !== undefined) return [];
  const client = async () => runtime.connector(type, instanceConfigOf(await upstream.get()));
  const callsOf = async () => runnableCalls(action, (await upstream.calls())[key] ?? (await manifestGetCalls(runtime.plugin(type), action, await client())));
  const checks: KitCheck[] = [
    {
      name: `${key}: runs against the upstream and its records match the record schema`,
      run: async () => {
        const connector = await client();
        for (const params of await callsOf()) {
          const outcome = await connector.execute({ entity, action: name, params });
          if (name === 'download') {
            for await (const _chunk of (outcome as unknown as DownloadResult).body);
          } else if (name === 'list' && !Array.isArray((outcome as ExecuteResult).result)) {
            throw new Error(`${key}: a list's result must be an array`);
          }
        }
      },
    },
  ];
  if (paginated) {
    const limit = options.maxPaginatedRecords ?? 10_000;
    checks.push({
      name: `${key}: pagination terminates`,
      run: async () => {
        const connector = await client();
        const [params] = await callsOf();
        let records = 0;
        for await (const _record of connector.paginate({ entity, action: name, params: params ?? {} })) {
          if (++records > limit) throw new Error(`${key}: pagination yielded more than ${limit} records without ending`);
        }
      },
    });
  }
  return checks;
}

/** Each declared upstream code, answered by a stand-in upstream, must come out as the status declared for it. */
function errorMappingChecks(definition: ConnectorDefinition): KitCheck[] {
  const { errors } = definition.transport;
  const expected = new Map<string, number>(Object.entries(errors.statusByCode));
  for (const code of errors.rateLimitCodes ?? []) expected.set(code, 429);
  if (expected.size === 0) return [];
  // No retries: a rate-limit code would otherwise wait out the backoff before it surfaces.
  const quick: ConnectorDefinition = { ...definition, transport: { ...definition.transport, maxRetries: 0 } };
  const runtime = new Runtime();
  const type = runtime.registerConnector(quick);
  // A read whose params pass validation, so the call reaches the stand-in upstream.
  const probeAction = kitActions(runtime.plugin(type)).find(
    ({ definition: action, validateParams }) =>
      action.request?.method === 'GET' &&
      action.action !== 'download' &&
      !action.hostedOnly &&
      validateParams(runnableCalls({ definition: action }, undefined)[0]),
  );
  if (!probeAction)
    return [
      {
        name: 'upstream error codes map as declared',
        run: () => Promise.reject(new Error('no GET action with valid example params to probe the error mapping with')),
      },
    ];
  const probe = probeAction.definition;
  const params = runnableCalls(probeAction, undefined)[0] ?? {};
  return [...expected].map(([code, status]) => ({
    name: `upstream error code ${code} maps to ${status}`,
    run: async () => {
      const upstream = await startErrorUpstream(errors.codePath);
      try {
        upstream.answerWith(code);
        const client = runtime.connector(type, { ...offlineInstanceConfig(runtime.plugin(type)), base_url: upstream.url });
        const error = await client.execute({ entity: probe.entity, action: probe.action, params }).then(
          () => new Error('the call succeeded'),
          (thrown: unknown) => thrown,
        );
        if (!(error instanceof PlugboardError) || error.status !== status || error.error_code !== code) {
          throw new Error(`upstream code ${code}: expected status ${status} with error_code ${code}, got ${describe(error)}`);
        }
      } finally {
        await upstream.close();
      }
    },
  }));
}

interface LazyUpstream<U extends KitUpstream> {
  get(): Promise<U>;
  calls(): Promise<Record<string, Array<Record<string, unknown>>>>;
  close(): Promise<void>;
}

/** The upstream is started by the first check that needs it, and once. */
function lazyUpstream<U extends KitUpstream>(options: ConnectorKitOptions<U>): LazyUpstream<U> {
  let started: Promise<U> | undefined;
  let calls: Promise<Record<string, Array<Record<string, unknown>>>> | undefined;
  const get = () => {
    if (!options.upstream) return Promise.reject(new Error('no upstream given to the kit'));
    started ??= options.upstream();
    return started;
  };
  return {
    get,
    calls: () => {
      calls ??= get().then(async (upstream) => (options.calls ? await options.calls(upstream) : {}));
      return calls;
    },
    close: async () => {
      if (started) await (await started).close();
    },
  };
}

function describe(error: unknown): string {
  if (error instanceof PlugboardError) return `${error.status} ${JSON.stringify(error.toJSON())}`;
  return error instanceof Error ? error.message : String(error);
}
