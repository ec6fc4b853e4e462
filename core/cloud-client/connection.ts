import type {
  ApiConnection,
  ApiConnectionPatch,
  ApiJob,
  ApiPage,
  ConfigConnectionState,
  ConfigStreamState,
  ConfigSyncCatalog,
  ConfigWebBackendConnection,
} from './api-types.ts';
import { CloudDestination } from './destination.ts';
import { MissingResourceError, NoopError, WorkspaceMismatchError } from './errors.ts';
import { Lazy } from './lazy.ts';
import { CloudSource } from './source.ts';
import { SyncResult } from './sync-result.ts';
import type { CloudWorkspace } from './workspace.ts';

export interface RunSyncOptions {
  /** Wait for the job to end (default true); a failed job then throws ConnectionSyncError. */
  wait?: boolean;
  /** Seconds to wait (default 300); running longer throws ConnectionSyncTimeoutError. */
  waitTimeout?: number;
  signal?: AbortSignal;
}

export interface SyncLogsOptions {
  /** How many jobs (default 20). */
  limit?: number;
  offset?: number;
  /** Newest first (default true), else oldest first. */
  fromTail?: boolean;
}

export interface DeleteConnectionOptions {
  cascadeDeleteSource?: boolean;
  cascadeDeleteDestination?: boolean;
  /** Delete only resources whose names contain `delete-me` or `deleteme` (default true). */
  safeMode?: boolean;
}

/** The largest page of jobs the public API serves. */
const JOB_PAGE = 100;

/**
 * A connection of a workspace. Made without a call (getConnection); its data is loaded on first use
 * and kept (`name()`, `sourceId()`, ...), except `isEnabled()`, which asks the API every time.
 * Changes answer the connection refreshed.
 */
export class CloudConnection {
  readonly #info: Lazy<ApiConnection>;

  constructor(
    readonly workspace: CloudWorkspace,
    readonly connectionId: string,
    info?: ApiConnection,
  ) {
    this.#info = new Lazy(() => this.fetch(), info);
  }

  get connectionUrl(): string {
    return `${this.workspace.workspaceUrl}/connections/${this.connectionId}`;
  }

  get jobHistoryUrl(): string {
    return `${this.connectionUrl}/job-history`;
  }

  /** The connection as the API answers it, loaded once. */
  info(): Promise<ApiConnection> {
    return this.#info.get();
  }

  refresh(): Promise<ApiConnection> {
    return this.#info.refresh();
  }

  async name(): Promise<string> {
    return (await this.info()).name;
  }

  async sourceId(): Promise<string> {
    return (await this.info()).sourceId;
  }

  async source(): Promise<CloudSource> {
    return new CloudSource(this.workspace, await this.sourceId());
  }

  async destinationId(): Promise<string> {
    return (await this.info()).destinationId;
  }

  async destination(): Promise<CloudDestination> {
    return new CloudDestination(this.workspace, await this.destinationId());
  }

  async streamNames(): Promise<string[]> {
    return ((await this.info()).configurations?.streams ?? []).map((stream) => stream.name);
  }

  async tablePrefix(): Promise<string> {
    return (await this.info()).prefix ?? '';
  }

  /** True exactly when the connection is `active`; read fresh from the API on every call. */
  async isEnabled(): Promise<boolean> {
    return (await this.refresh()).status === 'active';
  }

  /** True when the connection exists in this workspace; otherwise MissingResourceError or WorkspaceMismatchError. */
  async checkIsValid(): Promise<true> {
    const info = await this.refresh();
    if (info.workspaceId !== this.workspace.workspaceId) {
      throw new WorkspaceMismatchError('connection', this.connectionId, this.workspace.workspaceId, info.workspaceId);
    }
    return true;
  }

  async runSync(options: RunSyncOptions = {}): Promise<SyncResult> {
    const job = await this.workspace.api.post<ApiJob>('/jobs', { connectionId: this.connectionId, jobType: 'sync' }, { resource: this.resource });
    const result = await this.syncResult(job);
    if (options.wait ?? true) {
      await result.waitForCompletion({
        waitTimeout: options.waitTimeout ?? 300,
        raiseTimeout: true,
        raiseFailure: true,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    }
    return result;
  }

  /** The given job, else the newest sync job; null when there is none (and no id was given). */
  async getSyncResult(jobId?: number): Promise<SyncResult | null> {
    if (jobId !== undefined) {
      const job = await this.workspace.api.get<ApiJob>(`/jobs/${jobId}`, { resource: { type: 'job', id: String(jobId) } });
      if (job.connectionId !== this.connectionId)
        throw new MissingResourceError('job', String(jobId), `job ${jobId} is not a job of connection ${this.connectionId}`);
      return this.syncResult(job);
    }
    const [newest] = await this.listJobs(1, 0, true);
    return newest ? this.syncResult(newest) : null;
  }

  /** Sync jobs, newest first when fromTail (default), else oldest first. */
  async getPreviousSyncLogs(options: SyncLogsOptions = {}): Promise<SyncResult[]> {
    const jobs = await this.listJobs(options.limit ?? 20, options.offset ?? 0, options.fromTail ?? true);
    return Promise.all(jobs.map((job) => this.syncResult(job)));
  }

  /** The configured catalog (config API web_backend/connections/get); null when the connection is not found. */
  async getCatalogArtifact(): Promise<ConfigSyncCatalog | null> {
    try {
      const answer = await this.workspace.api.configPost<ConfigWebBackendConnection>(
        '/web_backend/connections/get',
        { connectionId: this.connectionId },
        { resource: this.resource },
      );
      return answer.syncCatalog ?? null;
    } catch (error) {
      if (error instanceof MissingResourceError) return null;
      throw error;
    }
  }

  /** Each stream's saved state (config API state/get); null when there is none. */
  async getStateArtifacts(): Promise<ConfigStreamState[] | null> {
    const state = await this.workspace.api.configPost<ConfigConnectionState>('/state/get', { connectionId: this.connectionId }, { resource: this.resource });
    if (state.stateType === 'not_set' || !state.streamState || state.streamState.length === 0) return null;
    return state.streamState;
  }

  rename(name: string): Promise<this> {
    return this.patch({ name });
  }

  /** Replaces the streams synced, each in its default mode. Destructive: streams left out stop syncing. */
  setSelectedStreams(streamNames: readonly string[]): Promise<this> {
    return this.patch({ configurations: { streams: streamNames.map((name) => ({ name })) } });
  }

  setTablePrefix(prefix: string): Promise<this> {
    return this.patch({ prefix });
  }

  /** Syncs on a cron schedule (Quartz, seconds first, or 5 fields; optional time zone). */
  setSchedule(cronExpression: string): Promise<this> {
    return this.patch({ schedule: { scheduleType: 'cron', cronExpression } });
  }

  /** No automatic syncs: they run only when triggered. */
  setManualSchedule(): Promise<this> {
    return this.patch({ schedule: { scheduleType: 'manual' } });
  }

  /** Makes the connection active or inactive; the same state again is a no-op, or a NoopError when ignoreNoop is false. */
  async setEnabled(enabled: boolean, options: { ignoreNoop?: boolean } = {}): Promise<this> {
    if ((await this.isEnabled()) === enabled) {
      if (options.ignoreNoop ?? true) return this;
      throw new NoopError(`connection ${this.connectionId} is already ${enabled ? 'enabled' : 'disabled'}`);
    }
    return this.patch({ status: enabled ? 'active' : 'inactive' });
  }

  /** Deletes the connection and, if asked, its source and destination (safe mode by default). */
  permanentlyDelete(options: DeleteConnectionOptions = {}): Promise<void> {
    return this.workspace.permanentlyDeleteConnection(this, options);
  }

  toString(): string {
    return `CloudConnection(${this.connectionId})`;
  }

  private get resource() {
    return { type: 'connection', id: this.connectionId };
  }

  private fetch(): Promise<ApiConnection> {
    return this.workspace.api.get<ApiConnection>(`/connections/${this.connectionId}`, { resource: this.resource });
  }

  private async patch(body: ApiConnectionPatch): Promise<this> {
    this.#info.set(await this.workspace.api.patch<ApiConnection>(`/connections/${this.connectionId}`, body, { resource: this.resource }));
    return this;
  }

  private async syncResult(job: ApiJob): Promise<SyncResult> {
    return new SyncResult(this.workspace, this, job.jobId, { tableNamePrefix: await this.tablePrefix(), job });
  }

  /** Sync jobs, `limit` of them from `offset`, a page of at most 100 at a time. */
  private async listJobs(limit: number, offset: number, newestFirst: boolean): Promise<ApiJob[]> {
    const jobs: ApiJob[] = [];
    while (jobs.length < limit) {
      const pageSize = Math.min(JOB_PAGE, limit - jobs.length);
      const page = await this.workspace.api.get<ApiPage<ApiJob>>('/jobs', {
        query: {
          connectionId: this.connectionId,
          jobType: 'sync',
          orderBy: `createdAt|${newestFirst ? 'DESC' : 'ASC'}`,
          limit: pageSize,
          offset: offset + jobs.length,
        },
      });
      jobs.push(...page.data);
      if (page.data.length < pageSize || !page.next) break;
    }
    return jobs;
  }
}
