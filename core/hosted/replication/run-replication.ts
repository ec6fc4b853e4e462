import { PlugboardError } from '../../errors.ts';
import { patient } from '../patient-call.ts';
import { paginate } from '../../execution/paginate.ts';
import { readAhead } from './read-ahead.ts';
import type { ExecuteFunction, ExecuteRequest, ExecuteResult } from '../../execution/types.ts';
import type { CompiledConnector } from '../../plugins/compiled-connector.ts';
import type { ReplicationContext, StoredRecord, UpstreamClient } from '../../sdk/index.ts';
import type { ContextStore } from '../context-store/context-store.ts';
import type { FieldCatalog } from '../context-store/field-catalog.ts';

export interface ReplicationTarget {
  connector: CompiledConnector;
  execute: ExecuteFunction;
  upstream: UpstreamClient;
  connectorId: string;
  config: Record<string, unknown> | undefined;
}

export interface ReplicationRunOptions {
  store: ContextStore;
  /** Called as records arrive (a lease renewal); throwing stops the run (the lease was lost). */
  onProgress?: () => Promise<void>;
  /** Stops the run between calls (server shutdown). */
  signal?: AbortSignal;
  /** Longest wait after a rate limit before asking again. */
  maxRateLimitWaitMs?: number;
}

/** Records written per store call: few large transactions keep the text indexes' merging cheap. */
const PAGE_BATCH = 5000;

/**
 * Runs a connector's `replicate` hook once. Each searchable entity is `loading` while the run lasts,
 * `ready` (with `synced_at`) once read through, and `failed` if the run stops before; what was read
 * is kept either way (writes are idempotent upserts, so a retry adds no duplicate).
 */
export async function runReplication(target: ReplicationTarget, options: ReplicationRunOptions): Promise<void> {
  const { connector, connectorId } = target;
  const { store } = options;
  const replicate = connector.definition.replicate;
  if (!replicate) throw new PlugboardError(400, `connector type "${connector.type}" does not replicate`, 'replication_not_supported');
  const catalogs = connector.searchCatalogs();
  const pending = new Set(catalogs.keys());
  for (const entity of pending) await store.setEntityState(connectorId, entity, 'loading');
  const catalogOf = (entity: string): FieldCatalog => {
    const catalog = catalogs.get(entity);
    if (!catalog) throw new Error(`${connector.type}: replicate wrote "${entity}", which has no search action`);
    return catalog;
  };
  const done = async (entity: string) => {
    pending.delete(entity);
    await store.setEntityState(connectorId, entity, 'ready', new Date());
  };
  const buffer = new UpsertBuffer(store, connectorId, catalogOf, options.onProgress);
  const call = patient((request: ExecuteRequest) => target.execute(request) as Promise<ExecuteResult>, options);
  const requestJson = patient((args: Parameters<UpstreamClient['requestJson']>) => target.upstream.requestJson(...args), options);
  const context: ReplicationContext = {
    config: target.config,
    startedAt: new Date(),
    upstream: { requestJson: (upstreamCall, params) => requestJson([upstreamCall, params]) },
    call: async (entity, action, params) => (await call({ entity, action, params })).result,
    list: (entity, action, params) => paginate(connector, call, { entity, action, params }),
    async replaceAll(entity, records) {
      const catalog = catalogOf(entity);
      const keep = new Set<string>();
      let batch: StoredRecord[] = [];
      const flush = async () => {
        for (const id of await store.write(connectorId, catalog, batch)) keep.add(id);
        batch = [];
        await options.onProgress?.();
      };
      for await (const record of readAhead(records, PAGE_BATCH)) {
        batch.push(record);
        if (batch.length >= PAGE_BATCH) await flush();
      }
      await flush();
      // Only now: a run that stopped early must not drop what it had not read yet.
      await store.sweep(connectorId, entity, keep);
      await done(entity);
      return keep.size;
    },
    upsert: (entity, records) => buffer.add(entity, records),
    async entityDone(entity) {
      await buffer.flush();
      await done(catalogOf(entity).entity);
    },
    checkpoint: (key) => store.checkpoint(connectorId, key),
    saveCheckpoint: (key, value) => buffer.checkpoint(key, value),
  };
  try {
    await replicate(context);
    await buffer.flush();
    await store.optimize();
  } catch (error) {
    // What was read is kept, with the checkpoints that vouch for it.
    await buffer.flush().catch(() => undefined);
    for (const entity of pending) await store.setEntityState(connectorId, entity, 'failed');
    throw error;
  }
  // An entity the hook never finished was not read through by this run.
  for (const entity of pending) await store.setEntityState(connectorId, entity, 'failed');
}

/**
 * Upserts and checkpoints gathered into large writes. A checkpoint is saved only after the records
 * buffered before it are stored, so it never vouches for something not written; flushes run one
 * after another, whatever the connector runs in parallel.
 */
class UpsertBuffer {
  private records = new Map<string, StoredRecord[]>();
  private checkpoints = new Map<string, string>();
  private size = 0;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: ContextStore,
    private readonly connectorId: string,
    private readonly catalogOf: (entity: string) => FieldCatalog,
    private readonly onProgress: (() => Promise<void>) | undefined,
  ) {}

  async add(entity: string, records: StoredRecord[]): Promise<void> {
    this.catalogOf(entity);
    const list = this.records.get(entity) ?? [];
    list.push(...records);
    this.records.set(entity, list);
    this.size += records.length;
    if (this.size >= PAGE_BATCH) await this.flush();
  }

  async checkpoint(key: string, value: string): Promise<void> {
    this.checkpoints.set(key, value);
    if (this.size === 0) await this.flush();
  }

  flush(): Promise<void> {
    const records = this.records;
    const checkpoints = this.checkpoints;
    this.records = new Map();
    this.checkpoints = new Map();
    this.size = 0;
    this.flushing = this.flushing.then(async () => {
      for (const [entity, list] of records) await this.store.write(this.connectorId, this.catalogOf(entity), list);
      for (const [key, value] of checkpoints) await this.store.saveCheckpoint(this.connectorId, key, value);
      await this.onProgress?.();
    });
    return this.flushing;
  }
}
