import type { StoredRecord } from '../../sdk/index.ts';
import type { FieldCatalog } from './field-catalog.ts';
import type { SearchPlan } from './search-query.ts';

export const REPLICATION_STATUSES = ['pending', 'loading', 'ready', 'failed'] as const;
export type ReplicationStatus = (typeof REPLICATION_STATUSES)[number];

/** How far replication got with one entity of a connector. */
export interface EntityState {
  status: ReplicationStatus;
  records: number;
  /** When a run last read the entity through; null until the first did. */
  synced_at: string | null;
}

export interface SearchHit {
  id: string;
  score: number;
  data: Record<string, unknown>;
}

export interface SearchPage {
  hits: SearchHit[];
  next_cursor: string | null;
  took_ms: number;
}

/**
 * Where replicated records live and are searched: every connector's records, their text indexes and
 * replication's bookkeeping, in SQLite (embedded default, or a local file in-process) or PostgreSQL.
 */
export interface ContextStore {
  readonly dialect: 'sqlite' | 'postgres';
  /** Creates the entity's expression indexes (once per start; cheap when they exist). */
  prepare(catalog: FieldCatalog): Promise<void>;
  /** Adds or updates records of one entity; returns the ids written (records without an id are skipped). */
  write(connectorId: string, catalog: FieldCatalog, records: StoredRecord[]): Promise<string[]>;
  /** Deletes the entity's records whose ids are not in `keep`; returns how many went. */
  sweep(connectorId: string, entity: string, keep: ReadonlySet<string>): Promise<number>;
  /** Sets an entity's status; `synced` also records a completed read (and the record count) at that time. */
  setEntityState(connectorId: string, entity: string, status: ReplicationStatus, synced?: Date): Promise<void>;
  entityStates(connectorId: string): Promise<Record<string, EntityState>>;
  checkpoint(connectorId: string, key: string): Promise<string | undefined>;
  saveCheckpoint(connectorId: string, key: string, value: string): Promise<void>;
  /** One page of a search; a 409 `context_store_not_ready` before the entity's first replication finished. */
  search(connectorId: string, catalog: FieldCatalog, plan: SearchPlan): Promise<SearchPage>;
  /** Refreshes the planner's statistics (after a replication run), so searches pick the right index. */
  optimize(): Promise<void>;
  /** What replication stored for a connector (records, text rows, states, checkpoints), so the next run starts afresh; its job stays. */
  clear(connectorId: string): Promise<void>;
  /** Everything kept for a connector: records, text rows, states, checkpoints, its replication job. */
  deleteConnector(connectorId: string): Promise<void>;
  close(): Promise<void>;
}
