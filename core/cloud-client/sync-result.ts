import { configurationInNamespace, connectionNamespace } from '../hosted/sync/destinations/destination-namespace.ts';
import type { ApiJob, ConfigJobInfo } from './api-types.ts';
import type { CloudConnection } from './connection.ts';
import { ConnectionSyncError, ConnectionSyncTimeoutError } from './errors.ts';
import { FAILED_STATUSES, FINAL_STATUSES, type JobStatus, jobStatusFromApi } from './job-status.ts';
// Types only: the SQL layer (kysely and the database drivers, slow to load) is imported when a result's tables are first read.
import type { Dataset, SqlCache, SqlColumnType, SqlDestination } from './sql/sql-destination.ts';
import type { CloudWorkspace } from './workspace.ts';

export interface WaitForCompletionOptions {
  /** Seconds to wait (default 1800). */
  waitTimeout?: number;
  /** Throw ConnectionSyncTimeoutError when the time is up (default true), else answer the status then. */
  raiseTimeout?: boolean;
  /** Throw ConnectionSyncError when the job failed or was cancelled (default false). */
  raiseFailure?: boolean;
  /** Stops waiting: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called after every poll. */
  onProgress?: (progress: SyncProgress) => void;
  /** Seconds before the first poll again (default 1); each wait is 1.5 times the last, at most maxPollInterval (default 10). */
  pollInterval?: number;
  maxPollInterval?: number;
}

export interface SyncProgress {
  jobId: number;
  status: JobStatus;
  elapsedSeconds: number;
  recordsSynced: number;
  bytesSynced: number;
}

export interface SyncAttempt {
  /** From 0. */
  attemptNumber: number;
  status: string;
  createdAt: Date;
  endedAt?: Date;
  bytesSynced: number;
  recordsSynced: number;
  failures: Array<{ origin?: string; message?: string; timestamp: Date }>;
  logLines: string[];
}

/** How to read a destination's tables from this machine (defaults: the workspace's localRoot and destinationSecrets). */
export interface SqlReadOptions {
  /** Where the destination's `/local/...` files are on this machine. */
  localRoot?: string;
  /** Secrets the API masks (a PostgreSQL `password`), by configuration field. */
  secrets?: Record<string, string>;
}

export interface SyncResultOptions {
  tableNamePrefix?: string;
  tableNameSuffix?: string;
  /** The job as already fetched, so reading it needs no call while it is final. */
  job?: ApiJob;
}

/**
 * One sync job of a connection: its status, counts and attempts, waiting for it, and the tables it
 * wrote, read through the destination's SQL database. Job data that can still change is fetched
 * again on each read until the job is final.
 */
export class SyncResult {
  readonly tableNamePrefix: string;
  readonly tableNameSuffix: string;
  #job: ApiJob | undefined;
  #sql: Promise<SqlDestination> | undefined;

  constructor(
    readonly workspace: CloudWorkspace,
    readonly connection: CloudConnection,
    readonly jobId: number,
    options: SyncResultOptions = {},
  ) {
    this.tableNamePrefix = options.tableNamePrefix ?? '';
    this.tableNameSuffix = options.tableNameSuffix ?? '';
    this.#job = options.job;
  }

  /** Currently the connection's job-history page. */
  get jobUrl(): string {
    return this.connection.jobHistoryUrl;
  }

  /** The job as the API answers it: fetched unless it is known and final. */
  async jobInfo(): Promise<ApiJob> {
    if (this.#job && FINAL_STATUSES.has(jobStatusFromApi(this.#job.status))) return this.#job;
    this.#job = await this.workspace.api.get<ApiJob>(`/jobs/${this.jobId}`, { resource: { type: 'job', id: String(this.jobId) } });
    return this.#job;
  }

  async getJobStatus(): Promise<JobStatus> {
    return jobStatusFromApi((await this.jobInfo()).status);
  }

  async isJobComplete(): Promise<boolean> {
    return FINAL_STATUSES.has(await this.getJobStatus());
  }

  async bytesSynced(): Promise<number> {
    return (await this.jobInfo()).bytesSynced ?? 0;
  }

  async recordsSynced(): Promise<number> {
    return (await this.jobInfo()).rowsSynced ?? 0;
  }

  async startTime(): Promise<Date> {
    return new Date((await this.jobInfo()).startTime);
  }

  /** The connection's streams. */
  streamNames(): Promise<string[]> {
    return this.connection.streamNames();
  }

  /** Each stream's table as a dataset (reading opens the destination; close() releases it). */
  async streams(options?: SqlReadOptions): Promise<Map<string, Dataset<Record<string, unknown>>>> {
    const entries = await Promise.all((await this.streamNames()).map(async (stream) => [stream, await this.getDataset(stream, options)] as const));
    return new Map(entries);
  }

  /** Each attempt with its counts, failures and log lines (config API jobs/get). */
  async getAttempts(): Promise<SyncAttempt[]> {
    const info = await this.workspace.api.configPost<ConfigJobInfo>('/jobs/get', { id: this.jobId }, { resource: { type: 'job', id: String(this.jobId) } });
    return info.attempts.map(({ attempt, logs }) => ({
      attemptNumber: attempt.id,
      status: attempt.status,
      createdAt: new Date(attempt.createdAt * 1000),
      ...(attempt.endedAt === undefined ? {} : { endedAt: new Date(attempt.endedAt * 1000) }),
      bytesSynced: attempt.bytesSynced ?? 0,
      recordsSynced: attempt.recordsSynced ?? 0,
      failures: (attempt.failureSummary?.failures ?? []).map((failure) => ({
        ...(failure.failureOrigin === undefined ? {} : { origin: failure.failureOrigin }),
        ...(failure.externalMessage === undefined ? {} : { message: failure.externalMessage }),
        timestamp: new Date(failure.timestamp),
      })),
      logLines: logs?.logLines ?? [],
    }));
  }

  /** Throws ConnectionSyncError when the job failed or was cancelled; the status known is used unless refreshStatus. */
  async raiseFailureStatus(options: { refreshStatus?: boolean } = {}): Promise<void> {
    const status = options.refreshStatus || !this.#job ? await this.getJobStatus() : jobStatusFromApi(this.#job.status);
    if (FAILED_STATUSES.has(status)) {
      throw new ConnectionSyncError(
        `sync job ${this.jobId} of connection ${this.connection.connectionId} ${status}`,
        this.jobId,
        status,
        this.connection.connectionId,
        this.workspace.workspaceId,
      );
    }
  }

  /** Polls the job, with backoff, until it is final or the time is up; answers its last status. */
  async waitForCompletion(options: WaitForCompletionOptions = {}): Promise<JobStatus> {
    const timeoutMs = (options.waitTimeout ?? 1800) * 1000;
    const maxDelayMs = (options.maxPollInterval ?? 10) * 1000;
    let delayMs = Math.min((options.pollInterval ?? 1) * 1000, maxDelayMs);
    const started = Date.now();
    for (;;) {
      options.signal?.throwIfAborted();
      const job = await this.jobInfo();
      const status = jobStatusFromApi(job.status);
      const elapsedMs = Date.now() - started;
      options.onProgress?.({
        jobId: this.jobId,
        status,
        elapsedSeconds: elapsedMs / 1000,
        recordsSynced: job.rowsSynced ?? 0,
        bytesSynced: job.bytesSynced ?? 0,
      });
      if (FINAL_STATUSES.has(status)) {
        if (options.raiseFailure) await this.raiseFailureStatus();
        return status;
      }
      if (elapsedMs >= timeoutMs) {
        if (options.raiseTimeout ?? true) {
          throw new ConnectionSyncTimeoutError(
            `sync job ${this.jobId} of connection ${this.connection.connectionId} is still ${status} after ${timeoutMs / 1000} s`,
            this.jobId,
            status,
            this.connection.connectionId,
            this.workspace.workspaceId,
          );
        }
        return status;
      }
      await sleep(Math.min(delayMs, timeoutMs - elapsedMs), options.signal);
      delayMs = Math.min(delayMs * 1.5, maxDelayMs);
    }
  }

  /**
   * The destination's database, opened once per result (the first call's options count) from its
   * configuration; close() releases it. Throws InputError for a destination type it cannot read.
   */
  sqlDestination(options: SqlReadOptions = {}): Promise<SqlDestination> {
    if (!this.#sql) {
      const opening = this.openSql(options);
      this.#sql = opening;
      opening.catch(() => {
        if (this.#sql === opening) this.#sql = undefined;
      });
    }
    return this.#sql;
  }

  async getSqlEngine(options?: SqlReadOptions): Promise<SqlDestination['engine']> {
    return (await this.sqlDestination(options)).engine;
  }

  async getSqlDatabaseName(options?: SqlReadOptions): Promise<string> {
    return (await this.sqlDestination(options)).databaseName();
  }

  async getSqlSchemaName(options?: SqlReadOptions): Promise<string> {
    return (await this.sqlDestination(options)).schemaName();
  }

  /** The table a stream landed in: the prefix, the stream, the suffix. */
  async getSqlTableName(streamName: string, options?: SqlReadOptions): Promise<string> {
    return (await this.sqlDestination(options)).tableName(`${streamName}${this.tableNameSuffix}`, this.tableNamePrefix);
  }

  /** A query on the stream's table (its schema qualified), to narrow and execute. */
  async getSqlTable(streamName: string, options?: SqlReadOptions): Promise<ReturnType<SqlDestination['table']>> {
    const sql = await this.sqlDestination(options);
    return sql.table(await this.getSqlTableName(streamName, options));
  }

  async getDataset<T = Record<string, unknown>>(streamName: string, options?: SqlReadOptions): Promise<Dataset<T>> {
    const sql = await this.sqlDestination(options);
    return sql.dataset<T>(await this.getSqlTableName(streamName, options));
  }

  /** The destination as a cache of this result's tables (its prefix). */
  async getSqlCache(options?: SqlReadOptions): Promise<SqlCache> {
    return (await this.sqlDestination(options)).cache(this.tableNamePrefix);
  }

  /** Releases the destination's database, if it was opened. */
  async close(): Promise<void> {
    const opened = this.#sql;
    this.#sql = undefined;
    if (opened) await (await opened.catch(() => undefined))?.close();
  }

  toString(): string {
    return `SyncResult(job ${this.jobId} of connection ${this.connection.connectionId})`;
  }

  private async openSql(options: SqlReadOptions): Promise<SqlDestination> {
    const { openSqlDestination } = await import('./sql/sql-destination.ts');
    const [destination, connection] = await Promise.all([(await this.connection.destination()).info(), this.connection.info()]);
    const localRoot = options.localRoot ?? this.workspace.localRoot;
    const secrets = options.secrets ?? this.workspace.destinationSecrets[destination.destinationId];
    // The tables are where the server wrote them: the connection's namespace, if it names one.
    const namespace = connectionNamespace(connection.namespaceDefinition, connection.namespaceFormat);
    return openSqlDestination(destination.destinationType, configurationInNamespace(destination.destinationType, destination.configuration, namespace), {
      ...(localRoot === undefined ? {} : { localRoot }),
      ...(secrets === undefined ? {} : { secrets }),
      columnTypes: await this.columnTypes(),
    });
  }

  /**
   * Each table's column types from its stream's schema in the connection's catalog: SQLite keeps
   * booleans as 0/1 and JSON as text, and only these say how to read them back. Without the config
   * API (another deployment) the rows come as the database answers them.
   */
  private async columnTypes(): Promise<Record<string, Record<string, SqlColumnType>>> {
    const { columnTypesFromJsonSchema } = await import('./sql/sql-destination.ts');
    const catalog = await this.connection.getCatalogArtifact().catch(() => null);
    const types: Record<string, Record<string, SqlColumnType>> = {};
    for (const { stream } of catalog?.streams ?? []) {
      types[`${this.tableNamePrefix}${stream.name}${this.tableNameSuffix}`] = columnTypesFromJsonSchema(stream.jsonSchema);
    }
    return types;
  }
}

/** Waits, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
