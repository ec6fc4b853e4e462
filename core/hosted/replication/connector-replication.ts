import { BadRequestError } from '../../errors.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import type { ContextStore, EntityState, ReplicationStatus } from '../context-store/context-store.ts';
import type { AccessScope, HostedConnectors } from '../hosted-connectors.ts';
import type { ReplicationJobs } from './replication-jobs.ts';
import type { ReplicationScheduler } from './replication-scheduler.ts';

/** The replication answer: the last (or current) run, and each searchable entity's state. */
export interface ReplicationState {
  status: ReplicationStatus;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  entities: Record<string, EntityState>;
}

/** A connector's replication as callers see it: its state, and a refresh on demand. */
export class ConnectorReplication {
  constructor(
    private readonly connectors: HostedConnectors,
    private readonly runtime: Runtime,
    private readonly jobs: ReplicationJobs,
    private readonly store: ContextStore,
    private readonly scheduler: ReplicationScheduler,
  ) {}

  async state(scope: AccessScope, id: string): Promise<ReplicationState> {
    const record = await this.connectors.get(scope, id);
    const catalogs = this.runtime.plugin(record.connector_type).searchCatalogs();
    if (catalogs.size === 0) {
      throw new BadRequestError(`connector type "${record.connector_type}" has nothing to replicate: it declares no search`, 'replication_not_supported');
    }
    const job = await this.jobs.get(id);
    const stored = await this.store.entityStates(id);
    const entities = Object.fromEntries(
      [...catalogs.keys()].sort().map((entity) => [entity, stored[entity] ?? { status: 'pending' as const, records: 0, synced_at: null }]),
    );
    return {
      status: job?.status ?? 'pending',
      started_at: job?.started_at ?? null,
      finished_at: job?.finished_at ?? null,
      error: job?.error ?? null,
      entities,
    };
  }

  /** Makes the connector's job due now; a run in progress is the refresh (no second one starts). */
  async refresh(scope: AccessScope, id: string): Promise<ReplicationState> {
    await this.state(scope, id);
    await this.jobs.add(id);
    await this.jobs.requestNow(id);
    this.scheduler.trigger();
    return this.state(scope, id);
  }

  /**
   * The connector's credentials or settings changed: replicate again with them, after the run in
   * progress if any; `reset`: what was stored no longer holds (another account, another start date),
   * so it is cleared and replication starts over.
   */
  async changed(id: string, { reset }: { reset: boolean }): Promise<void> {
    if (reset) {
      await this.jobs.restart(id);
      await this.store.clear(id);
    } else {
      await this.jobs.requestRerun(id);
    }
    this.scheduler.trigger();
  }
}
