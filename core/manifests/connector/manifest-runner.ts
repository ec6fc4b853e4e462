import type { ValidateFunction } from 'ajv';
import { NotFoundError, ValidationError } from '../../errors.ts';
import type { CompiledAction } from '../../plugins/compiled-connector.ts';
import { toValidationIssues } from '../../schema/validation-issues.ts';
import type { EgressPolicy } from '../../security/egress/egress-policy.ts';
import { isObject } from '../json-values.ts';
import type { LoadedManifest } from '../load-manifest.ts';
import { type ManifestSpec, manifestSpec } from '../manifest-spec.ts';
import type { DeclarativeStream } from '../model.ts';
import { type ReadMessage, type ReadOptions, readStream } from '../read/index.ts';
import { entityNamesOf } from './entity-names.ts';
import { getPath, LIST_LIMIT } from './manifest-definition.ts';
import { type ListSession, ListSessions } from './list-sessions.ts';

/** What an instance of a manifest connector is given besides its configuration. */
export interface ManifestInstanceOptions {
  /** The network policy its reads obey (the hosted server's, for URLs a tenant's configuration names). */
  egress?: EgressPolicy;
  /** Told the configuration a read changed (a renewed single-use refresh token), for the caller to keep. */
  onConfigChanged?: (config: Record<string, unknown>) => unknown;
}

/**
 * A manifest as a loaded connector runs it: its streams by entity, its configuration checked against
 * the spec, and instances that serve `list` and `get` by reading streams with the interpreter.
 */
export class ManifestRunner {
  readonly spec: ManifestSpec;
  /** Entity → stream name. */
  readonly entities: Map<string, string>;
  /** Set once the connector's schemas are compiled (the config schema among them). */
  validateConfig: ValidateFunction | undefined;
  private readonly sessions = new ListSessions();

  constructor(readonly loaded: LoadedManifest) {
    this.spec = manifestSpec(loaded);
    this.entities = entityNamesOf(this.spec.streams.map((stream) => stream.name));
  }

  /** The configuration, if its spec accepts it; else a 422 naming each problem (never a value). */
  checkConfig(config: unknown, loc: Array<string | number> = ['config']): Record<string, unknown> {
    if (!isObject(config))
      throw new ValidationError([{ loc, msg: 'a manifest connector is configured with an object its spec describes', type: 'type_error.dict' }]);
    const validate = this.validateConfig;
    if (validate && !validate(config)) throw new ValidationError(toValidationIssues(validate.errors ?? [], loc));
    return config;
  }

  instance(config: Record<string, unknown>, options: ManifestInstanceOptions = {}): ManifestInstance {
    return new ManifestInstance(this, this.sessions, this.checkConfig(config), options);
  }

  streamOf(entity: string): DeclarativeStream {
    const name = this.entities.get(entity)!;
    return this.loaded.source.streams.find((stream) => stream.name === name)!;
  }
}

type Params = Record<string, unknown>;

/** One configured instance: its reads share the configuration, renewed tokens included. */
export class ManifestInstance {
  private config: Record<string, unknown>;

  constructor(
    private readonly runner: ManifestRunner,
    private readonly sessions: ListSessions,
    config: Record<string, unknown>,
    private readonly options: ManifestInstanceOptions,
  ) {
    this.config = structuredClone(config);
  }

  /** The body an action's response mapping reads: `{records, next_cursor, state}` for a list, the record for a get. */
  run(action: CompiledAction, params: Params): Promise<unknown> {
    const { entity } = action.definition;
    return action.definition.action === 'get' ? this.get(entity, params.id as string | number) : this.list(entity, params);
  }

  /** Reads a stream from its start (or from `state`), with this instance's configuration. */
  read(streamName: string, extra: Pick<ReadOptions, 'state' | 'signal'> = {}): AsyncGenerator<ReadMessage> {
    const egress = this.options.egress;
    return readStream(this.runner.loaded, streamName, { config: this.config, ...(egress ? { egress } : {}), ...extra });
  }

  private async list(entity: string, params: Params): Promise<unknown> {
    const limit = (params.limit as number | undefined) ?? LIST_LIMIT.default;
    const stream = this.runner.entities.get(entity)!;
    const resumed = typeof params.cursor === 'string' ? this.sessions.resume(params.cursor, this) : undefined;
    const session: ListSession =
      resumed && 'session' in resumed
        ? resumed.session
        : { messages: this.read(stream, params.state === undefined ? {} : { state: params.state }), given: 0, owner: this };
    let skip = resumed && 'skip' in resumed ? resumed.skip : 0;
    const records: unknown[] = [];
    let state: unknown = null;
    for (;;) {
      const message = session.pending ?? (await this.next(session));
      session.pending = undefined;
      if (message === undefined) return { records, next_cursor: null, state };
      if (message.type === 'state') state = message.state;
      if (message.type !== 'record') continue;
      if (skip > 0) {
        skip--;
        session.given++;
        continue;
      }
      if (records.length === limit) {
        session.pending = message;
        return { records, next_cursor: this.sessions.pause(session), state };
      }
      records.push(message.record);
      session.given++;
    }
  }

  /** The next message of a read, a config change kept (and told) on the way. */
  private async next(session: ListSession): Promise<ReadMessage | undefined> {
    for (;;) {
      const step = await session.messages.next();
      if (step.done) return undefined;
      if (step.value.type !== 'config') return step.value;
      this.config = step.value.config;
      await this.options.onConfigChanged?.(structuredClone(this.config));
    }
  }

  /** One record from the stream's own path followed by the id, read with the stream's requester, selector and transformations. */
  private async get(entity: string, id: string | number): Promise<unknown> {
    const stream = this.runner.streamOf(entity);
    const described = this.runner.spec.streams.find((candidate) => candidate.name === stream.name)!;
    const base = getPath(stream, described)!;
    const single: DeclarativeStream = {
      ...stream,
      incremental_sync: undefined,
      retriever: {
        ...stream.retriever,
        paginator: { type: 'NoPagination' },
        requester: { ...stream.retriever.requester, path: `${base.replace(/\/+$/, '')}/${encodeURIComponent(String(id))}` },
      },
    } as DeclarativeStream;
    const manifest = { ...this.runner.loaded, source: { ...this.runner.loaded.source, streams: [single] } };
    const egress = this.options.egress;
    for await (const message of readStream(manifest, stream.name, { config: this.config, ...(egress ? { egress } : {}) })) {
      if (message.type === 'record') return message.record;
    }
    throw new NotFoundError(`No ${entity} record has the ${described.primaryKey[0]!.join('.')} ${JSON.stringify(id)}`, 'record_not_found');
  }
}
