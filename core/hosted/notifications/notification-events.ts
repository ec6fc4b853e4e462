import { randomUUID } from 'node:crypto';
import type { SqlDriver } from '../../stores/sql-driver.ts';

/**
 * What can call for a notification, and what its row says (never a secret):
 * - `sync_job_ended` {jobId}: a sync job succeeded or failed (the workspace's failure, success, schema
 *   change and auto-disable notifications follow from it);
 * - `source_created`, `source_updated`, `source_deleted` {source}: an embedded connector's life;
 * - `replication_ended` {connectorId, error?}: a replication run's outcome;
 * - `credential_expired` {credentialKey}: an OAuth grant found gone.
 */
export type EventKind = 'sync_job_ended' | 'source_created' | 'source_updated' | 'source_deleted' | 'replication_ended' | 'credential_expired';

export interface NotificationEvent {
  id: string;
  kind: EventKind;
  subject: unknown;
  /** Epoch ms. */
  createdAt: number;
}

/**
 * The outbox's first half: an event is a small row written with its cause (in the cause's transaction
 * when it has one here), so it survives a crash that follows; the expansion turns it into deliveries
 * later, in a transaction of its own that marks it expanded, so it is expanded exactly once.
 */
export class NotificationEvents {
  constructor(
    private readonly db: SqlDriver,
    private readonly clock: () => number,
    /** Told after each record: the expansion may look now rather than at its next poll. */
    private readonly recorded: () => void = () => undefined,
  ) {}

  /** Records an event; `db` is the cause's transaction when there is one. */
  async record(db: SqlDriver, kind: EventKind, subject: unknown): Promise<void> {
    await db.run('INSERT INTO notification_events (id, kind, subject, created_at) VALUES (?, ?, ?, ?)', [
      randomUUID(),
      kind,
      JSON.stringify(subject),
      this.clock(),
    ]);
    this.recorded();
  }

  /** Events not expanded yet, oldest first. */
  async pending(limit: number): Promise<NotificationEvent[]> {
    const rows = await this.db.all<{ id: string; kind: EventKind; subject: string; created_at: number | string }>(
      'SELECT id, kind, subject, created_at FROM notification_events WHERE expanded_at IS NULL ORDER BY created_at, id LIMIT ?',
      [limit],
    );
    return rows.map((row) => ({ id: row.id, kind: row.kind, subject: JSON.parse(row.subject) as unknown, createdAt: Number(row.created_at) }));
  }

  /** Marks the event expanded in `tx`; false when another instance did first (it is theirs). */
  async take(tx: SqlDriver, id: string): Promise<boolean> {
    const { changes } = await tx.run('UPDATE notification_events SET expanded_at = ? WHERE id = ? AND expanded_at IS NULL', [this.clock(), id]);
    return changes === 1;
  }

  /** Forgets events expanded before `before`. */
  async prune(before: number): Promise<void> {
    await this.db.run('DELETE FROM notification_events WHERE expanded_at < ?', [before]);
  }
}
