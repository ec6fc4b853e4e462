import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { Store, Workspace } from '../../stores/types.ts';
import { ActorTable } from '../cloud-api/actor-table.ts';
import { type ConnectionRecord, ConnectionTable } from '../cloud-api/connection-table.ts';
import { MAX_ATTEMPTS, type SyncJob, SyncJobs } from '../sync/sync-jobs.ts';
import { autoDisableVerdict, disableConnection, failureHistory } from './auto-disable.ts';
import { type Expander, NOTHING } from './event-expansion.ts';
import type { Links } from './links.ts';
import type { AutoDisableThresholds } from './notification-settings.ts';
import type { SchemaWatch } from './schema-watch.ts';
import { type SyncOutcome, type SyncSummary, syncSummary } from './sync-summary.ts';
import { jobMessage, schemaChangeMessage } from './workspace-messages.ts';
import { workspaceOutgoing } from './workspace-outgoing.ts';

export interface SyncJobExpanderDependencies {
  db: SqlDriver;
  store: Store;
  links: Links;
  thresholds: AutoDisableThresholds;
  schemas: SchemaWatch;
}

/**
 * A sync job's end, as Airbyte's JobNotifier and auto-disable check tell it: `success` or `failure`
 * with the sync summary; after a failure of an active connection, `syncDisabledWarning`, or the
 * connection set inactive and `syncDisabled`; and a schema change of its source since the last job.
 * Cancelled jobs call for nothing. Each goes to the workspace's webhook for it, if switched on.
 */
export function syncJobExpander(deps: SyncJobExpanderDependencies): Expander {
  const jobs = new SyncJobs(deps.db);
  const connections = new ConnectionTable(deps.db);
  return async (event) => {
    const job = await jobs.get((event.subject as { jobId: number }).jobId);
    if (!job || (job.status !== 'succeeded' && job.status !== 'failed')) return NOTHING;
    const connection = await connections.get(job.connection_id);
    const workspace = connection && (await deps.store.getWorkspace(connection.workspaceId));
    if (!connection || !workspace) return NOTHING;
    const summary = syncSummary(await linksOf(deps, workspace, connection), await outcomeOf(jobs, job));
    const about = { connectionId: connection.id, jobId: job.id };
    const ended = jobMessage(job.status === 'succeeded' ? 'success' : 'failure', summary, deps.thresholds);
    const verdict =
      job.status === 'failed' && connection.status === 'active'
        ? autoDisableVerdict(await failureHistory(deps.db, connection.id, job.id, event.createdAt), deps.thresholds)
        : 'none';
    const schema = await deps.schemas.look(connection);
    const change = schema.change;
    return async (tx) => {
      await schema.keep(tx);
      const disabled = verdict === 'disable' && (await disableConnection(tx, connection.id));
      return [
        ...workspaceOutgoing(workspace, summary.success ? 'success' : 'failure', ended, about),
        ...(verdict === 'warn' ? workspaceOutgoing(workspace, 'syncDisabledWarning', jobMessage('syncDisabledWarning', summary, deps.thresholds), about) : []),
        ...(disabled ? workspaceOutgoing(workspace, 'syncDisabled', jobMessage('syncDisabled', summary, deps.thresholds), about) : []),
        ...(change ? workspaceOutgoing(workspace, change.event, schemaChangeMessage(change.event, summary, change.diff), { connectionId: connection.id }) : []),
      ];
    };
  };
}

async function linksOf(
  deps: SyncJobExpanderDependencies,
  workspace: Workspace,
  connection: ConnectionRecord,
): Promise<Pick<SyncSummary, 'workspace' | 'connection' | 'source' | 'destination'>> {
  const source = await new ActorTable(deps.db, 'cloud_sources', 'source_id').get(connection.sourceId);
  const destination = await new ActorTable(deps.db, 'cloud_destinations', 'destination_id').get(connection.destinationId);
  return {
    workspace: deps.links.workspace(workspace.id, workspace.name),
    connection: deps.links.connection(connection),
    source: deps.links.actor('source', workspace.id, connection.sourceId, source?.name ?? connection.sourceId),
    destination: deps.links.actor('destination', workspace.id, connection.destinationId, destination?.name ?? connection.destinationId),
  };
}

/**
 * The job's counts and times and, for a failure, its last attempt's reason. Plugboard keeps no failure
 * type: a job that failed before its last attempt was ended by an error only the user can fix (the
 * source must be connected again), Airbyte's `config_error` of the source; any other is a `system_error`.
 */
async function outcomeOf(jobs: SyncJobs, job: SyncJob): Promise<SyncOutcome> {
  const base = {
    jobId: job.id,
    success: job.status === 'succeeded',
    startedAt: Date.parse(job.created_at),
    finishedAt: Date.parse(job.ended_at ?? job.updated_at),
    rows: job.rows_synced,
    bytes: job.bytes_synced,
  };
  if (job.status !== 'failed') return base;
  const last = (await jobs.attempts(job.id)).at(-1);
  const userMustAct = job.attempts < MAX_ATTEMPTS;
  return {
    ...base,
    error: {
      message: last?.failure ?? 'the job failed',
      type: userMustAct ? 'config_error' : 'system_error',
      origin: userMustAct ? 'source' : null,
    },
  };
}
