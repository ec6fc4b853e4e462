import type { DataKeyring } from '../../security/data-keyring.ts';
import type { SqlDriver, SqlValue } from '../../stores/sql-driver.ts';
import { newWebhookId } from './standard-webhooks.ts';
import type { WebhookOwner } from './webhook-secrets.ts';
import { urlOrigin } from './webhook-urls.ts';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A message to queue for one URL. */
export interface Outgoing {
  owner: WebhookOwner;
  organizationId: string;
  /** The notification's event: a workspace setting's key (`failure`...) or an embedded event (`source.created`...). */
  eventType: string;
  url: string;
  /** The exact bytes to send and sign. */
  body: string;
  connectionId?: string;
  jobId?: number;
}

/** A delivery as stored, its URL still sealed. Times are epoch ms. */
export interface DeliveryRecord {
  id: string;
  owner: WebhookOwner;
  organizationId: string;
  eventType: string;
  connectionId: string | null;
  jobId: number | null;
  urlOrigin: string;
  sealedUrl: { key_id: string; ciphertext: string };
  body: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: number;
  finishedAt: number | null;
}

interface Row {
  id: string;
  owner_kind: WebhookOwner['kind'];
  owner_id: string;
  organization_id: string;
  event_type: string;
  connection_id: string | null;
  job_id: number | string | null;
  url_origin: string;
  key_id: string;
  ciphertext: string;
  body: string;
  status: DeliveryStatus;
  attempts: number | string;
  next_attempt_at: number | string;
  last_status_code: number | string | null;
  last_error: string | null;
  created_at: number | string;
  finished_at: number | string | null;
}

/** How an attempt that did not deliver ends: another attempt at `retryAt`, or none (given up). */
export interface FailedAttempt {
  statusCode?: number;
  error: string;
  retryAt?: number;
}

const DUE = "status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)";

/**
 * The delivery queue (the outbox's second half): one row per message and URL. A worker takes a due
 * row with a lease in one conditional UPDATE, counting the attempt as it takes it, so an attempt cut
 * off by a crash (sent, not yet marked) counts and is made again, with the same webhook-id, once its
 * lease is let go: at-least-once, never silently lost, and a duplicate a receiver can recognise.
 */
export class Deliveries {
  constructor(
    private readonly db: SqlDriver,
    private readonly keyring: DataKeyring,
    private readonly clock: () => number,
  ) {}

  /** Queues a message, due at once; `db`: the transaction it belongs to, if any. Answers its webhook-id. */
  async add(outgoing: Outgoing, db: SqlDriver = this.db): Promise<string> {
    const id = newWebhookId();
    const sealed = this.keyring.encrypt(outgoing.url);
    const now = this.clock();
    await db.run(
      `INSERT INTO notification_deliveries (id, owner_kind, owner_id, organization_id, event_type, connection_id, job_id, url_origin, key_id, ciphertext,
         body, status, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
      [
        id,
        outgoing.owner.kind,
        outgoing.owner.id,
        outgoing.organizationId,
        outgoing.eventType,
        outgoing.connectionId ?? null,
        outgoing.jobId ?? null,
        urlOrigin(outgoing.url),
        sealed.key_id,
        sealed.ciphertext,
        outgoing.body,
        now,
        now,
      ],
    );
    return id;
  }

  async get(id: string): Promise<DeliveryRecord | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM notification_deliveries WHERE id = ?', [id]);
    return row && toRecord(row);
  }

  /** Deliveries due now and not held by a live lease, oldest due first. */
  async due(limit: number): Promise<string[]> {
    const now = this.clock();
    const rows = await this.db.all<{ id: string }>(`SELECT id FROM notification_deliveries WHERE ${DUE} ORDER BY next_attempt_at LIMIT ?`, [now, now, limit]);
    return rows.map((row) => row.id);
  }

  /** Takes a due delivery for `owner` as its next attempt; the attempt's number, or undefined when another took it (or it is not due). */
  async claim(id: string, owner: string, leaseMs: number): Promise<number | undefined> {
    const now = this.clock();
    const { changes } = await this.db.run(
      `UPDATE notification_deliveries SET attempts = attempts + 1, lease_owner = ?, lease_until = ? WHERE id = ? AND ${DUE}`,
      [owner, now + leaseMs, id, now, now],
    );
    if (changes !== 1) return undefined;
    return (await this.get(id))?.attempts;
  }

  /** A 2xx: delivered. Nothing happens when `owner` no longer holds it. */
  async delivered(id: string, owner: string, statusCode: number): Promise<void> {
    await this.settle(id, owner, { status: 'delivered', last_status_code: statusCode, last_error: null, finished_at: this.clock() });
  }

  /** An attempt that did not deliver: due again at `retryAt`, or given up. */
  async attemptFailed(id: string, owner: string, attempt: FailedAttempt): Promise<void> {
    const common = { last_status_code: attempt.statusCode ?? null, last_error: attempt.error };
    await this.settle(
      id,
      owner,
      attempt.retryAt === undefined ? { ...common, status: 'failed', finished_at: this.clock() } : { ...common, next_attempt_at: attempt.retryAt },
    );
  }

  /** Lets the delivery go at once (this instance is stopping): the next poll takes it again. */
  async release(id: string, owner: string): Promise<void> {
    await this.db.run('UPDATE notification_deliveries SET lease_until = ? WHERE id = ? AND lease_owner = ?', [this.clock() - 1, id, owner]);
  }

  /** Lets go at once what an earlier run of this instance held when it died (see SyncJobs.releaseEarlierRuns). */
  async releaseEarlierRuns(prefix: string): Promise<void> {
    await this.db.run("UPDATE notification_deliveries SET lease_until = ? WHERE status = 'pending' AND substr(lease_owner, 1, ?) = ?", [
      this.clock() - 1,
      prefix.length,
      prefix,
    ]);
  }

  /** One page of an owner's deliveries, newest first (one more than `limit`, so the caller knows whether a page follows). */
  async list(owner: WebhookOwner, page: { limit: number; offset: number; status?: DeliveryStatus }): Promise<DeliveryRecord[]> {
    const rows = await this.db.all<Row>(
      `SELECT * FROM notification_deliveries WHERE owner_kind = ? AND owner_id = ?${page.status ? ' AND status = ?' : ''}
       ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [owner.kind, owner.id, ...(page.status ? [page.status] : []), page.limit + 1, page.offset],
    );
    return rows.map(toRecord);
  }

  /** Forgets deliveries that ended before `before` (the log keeps a window, not everything). */
  async prune(before: number): Promise<void> {
    await this.db.run("DELETE FROM notification_deliveries WHERE status <> 'pending' AND finished_at < ?", [before]);
  }

  private async settle(id: string, owner: string, values: Record<string, SqlValue>): Promise<void> {
    const sets = Object.keys(values).map((column) => `${column} = ?`);
    await this.db.run(`UPDATE notification_deliveries SET ${sets.join(', ')}, lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?`, [
      ...Object.values(values),
      id,
      owner,
    ]);
  }
}

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

function toRecord(row: Row): DeliveryRecord {
  return {
    id: row.id,
    owner: { kind: row.owner_kind, id: row.owner_id },
    organizationId: row.organization_id,
    eventType: row.event_type,
    connectionId: row.connection_id,
    jobId: numberOrNull(row.job_id),
    urlOrigin: row.url_origin,
    sealedUrl: { key_id: row.key_id, ciphertext: row.ciphertext },
    body: row.body,
    status: row.status,
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
    lastStatusCode: numberOrNull(row.last_status_code),
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    finishedAt: numberOrNull(row.finished_at),
  };
}
