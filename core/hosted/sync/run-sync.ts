import type { ExecuteRequest, ExecuteResult } from '../../execution/types.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import type { StoredRecord } from '../../sdk/index.ts';
import type { DeploymentUpstreams } from '../deployment-upstreams.ts';
import { credentialKeys, type OAuthTokens } from '../oauth/oauth-tokens.ts';
import { patient, type PatienceOptions } from '../patient-call.ts';
import { readAhead } from '../replication/read-ahead.ts';
import type { CompiledConnector } from '../../plugins/compiled-connector.ts';
import type { Destination } from './destinations/destination.ts';
import { syncStreamMapping } from './mappers/stream-mapping.ts';
import { manifestStreamRead, type StreamRead } from './read-manifest-stream.ts';
import { readStream, type StreamSource, type StreamState } from './read-stream.ts';
import type { JobType } from './sync-jobs.ts';
import type { SavedState, SyncStates } from './sync-states.ts';
import { findSyncStream, type SyncStreamSpec } from './sync-streams.ts';
import type { ConnectorSyncSource, SelectedStream, SyncSource, SyncTarget } from './sync-target.ts';
import { ThrottledSave } from './throttled-save.ts';
import { WritePipeline } from './write-pipeline.ts';

/**
 * Records per destination write. Small: encoding a batch holds the event loop, and the next upstream
 * page waits on it (bench:sync measured sync_over_read 0.65 with 5,000, 0.64 to 0.80 with 1,000 and
 * 0.63 to 0.71 with 500; runs vary by a tenth); transactions of 1,000 rows are still cheap.
 */
const WRITE_BATCH = 1000;
/**
 * Upstream pages read ahead while a batch is written. One: each parsed page waiting is objects that
 * live through collections (bench:sync: with two, more garbage promoted and no faster).
 */
const PAGES_AHEAD = 1;
/**
 * Records handed to the destination and not yet written: the reader runs ahead of the writer by this
 * much, each batch in its own shared buffer meanwhile (bench:sync into SQLite: peak RSS 369 MB with
 * 8,000, 356 with 4,000, 345 with 2,000, which was slower).
 */
const RECORDS_IN_FLIGHT = 4_000;

export interface SyncAttemptContext extends PatienceOptions {
  jobId: number;
  jobType: JobType;
  /** Called before a full refresh swaps its table in: throws unless this attempt still holds its job. */
  beforeCommit(): Promise<void>;
  /** Counts what was written, as it is written. */
  onWritten(rows: number, bytes: number): Promise<void>;
  log(line: string): Promise<void>;
}

export interface SyncDependencies {
  runtime: Runtime;
  /** The deployment's upstream root per connector type (the sandboxes in tests). */
  upstreams: DeploymentUpstreams;
  /** The destination of a workspace's connection. */
  openDestination(destination: SyncTarget['destination'], workspaceId: string): Destination;
  states: SyncStates;
  /** Where sources' renewed OAuth tokens are kept (the hosted server's); without it, renewals live as long as the attempt. */
  oauthTokens?: OAuthTokens;
}

/**
 * One attempt of a job. A sync reads each selected stream through the source's connector and writes
 * its table: full refresh into a staging table swapped in at the end, incremental upserted by primary
 * key batch by batch, the stream's state saved only once what it vouches for is written. A reset
 * drops the tables and forgets the state. A refresh reads every stream from its start as a full
 * refresh does, and saves an incremental stream's new state once its table is swapped in.
 */
export async function runSyncAttempt(target: SyncTarget, context: SyncAttemptContext, deps: SyncDependencies): Promise<void> {
  const connector = deps.runtime.plugin(target.source.connectorType);
  const destination = deps.openDestination(target.destination, target.workspaceId);
  try {
    if (context.jobType === 'reset') {
      await destination.dropTables(target.streams.map((stream) => target.prefix + stream.name));
      await deps.states.clear(target.connectionId);
      await context.log(`reset: dropped ${target.streams.length} tables and cleared the state`);
      return;
    }
    const read = await streamRead(connector, target.source, context, deps);
    for (const selected of target.streams) {
      const spec = findSyncStream(connector, selected.name);
      if (!spec) throw new Error(`stream "${selected.name}" is not a sync stream of ${connector.type}`);
      await syncStream(target, selected, spec, read, destination, context, deps.states);
    }
  } finally {
    await destination.close();
  }
}

/** How the attempt reads its streams: through a Plugboard connector's list actions, or an Airbyte manifest's reads. */
async function streamRead(connector: CompiledConnector, source: SyncSource, context: SyncAttemptContext, deps: SyncDependencies): Promise<StreamRead> {
  if ('config' in source) {
    if (!connector.manifest) throw new Error(`${connector.type} is not an Airbyte manifest: it reads with credentials, not a configuration`);
    return manifestStreamRead(connector.manifest, source, { egress: deps.upstreams.egress, ...(context.signal ? { signal: context.signal } : {}) });
  }
  const execute = await connectorExecute(source, context, deps);
  const streamSource: StreamSource = { connector, execute, settings: source.settings };
  // What this stream's own reads saved: its cursors or token.
  return (spec, state) => readStream(streamSource, spec, state as StreamState | undefined);
}

/** The connector instance's execute (from the source's renewed tokens, where the server keeps them), made patient. */
async function connectorExecute(source: ConnectorSyncSource, context: SyncAttemptContext, deps: SyncDependencies): Promise<StreamSource['execute']> {
  const { connectorType, credentials, sourceId } = source;
  const deployed = deps.upstreams.instanceConfig(connectorType, credentials);
  const config = deps.oauthTokens ? await deps.oauthTokens.instanceConfig(credentialKeys.source(sourceId), deployed) : deployed;
  const instance = deps.runtime.instance(connectorType, config, { connectorId: sourceId, mode: 'hosted' });
  return patient((request: ExecuteRequest) => instance.execute(request) as Promise<ExecuteResult>, context);
}

async function syncStream(
  target: SyncTarget,
  selected: SelectedStream,
  spec: SyncStreamSpec,
  read: StreamRead,
  destination: Destination,
  context: SyncAttemptContext,
  states: SyncStates,
): Promise<void> {
  const incremental = selected.syncMode !== 'full_refresh_overwrite';
  // Until the refreshed table is in, the old state still describes the old table: it stays.
  const refresh = incremental && context.jobType === 'refresh';
  const table = target.prefix + spec.name;
  const state = incremental ? (refresh ? {} : ((await states.get(target.connectionId, spec.name)) ?? {})) : undefined;
  // The selected fields and mappers shape the table and each record before the destination sees it (and counts its bytes).
  const mapping = syncStreamMapping(spec, selected);
  await context.log(`${spec.name}: ${describeRead(incremental, refresh, table, state)}`);
  const writer = await destination.openStream({ name: table, ...mapping.table }, incremental && !refresh ? 'append_dedup' : 'overwrite', {
    syncId: context.jobId,
  });
  let refreshedState: SavedState | undefined;
  let batch: StoredRecord[] = [];
  let written = 0;
  // Batches are written (and states saved after them) while the next pages are read.
  const pipeline = new WritePipeline(RECORDS_IN_FLIGHT);
  // The newest state reached replaces an older one not saved yet.
  const checkpoints = new ThrottledSave<SavedState>(
    (state) => states.save(target.connectionId, spec.name, state),
    (_older, newer) => newer,
    true,
  );
  // Handed over now, not when the writes before it are done: the destination serializes the batch at
  // once and queues it, so its writer never waits for this thread to be free. Not in an async function,
  // whose suspended frame would hold the records: nothing waiting on the write does, so they die young.
  const handOver = (): Promise<number> => {
    const records = batch;
    batch = [];
    // A stopping server (or a cancelled job) writes no more: the next attempt resumes from the state saved.
    context.signal?.throwIfAborted();
    return writer.write(records);
  };
  const flush = async () => {
    const count = batch.length;
    if (count === 0) return;
    await pipeline.pushStarted(handOver(), count, async (bytes) => {
      written += count;
      await context.onWritten(count, bytes);
    });
  };
  try {
    for await (const item of readAhead(read(spec, state), PAGES_AHEAD)) {
      if ('state' in item) {
        if (refresh) {
          refreshedState = item.state;
          continue;
        }
        await flush();
        // In line after the writes it vouches for.
        await pipeline.push(() => checkpoints.add(item.state));
        continue;
      }
      for (const record of item.records) {
        const mapped = mapping.map(record);
        if (mapped) batch.push(mapped);
      }
      // At a page's end with half a batch in hand: a page's records handed over (and dead) before the next page is parsed.
      if (batch.length >= WRITE_BATCH / 2) await flush();
    }
    await flush();
    await pipeline.drain();
    await checkpoints.flush();
    context.signal?.throwIfAborted();
    await context.beforeCommit();
    await writer.commit();
    if (refreshedState) await states.save(target.connectionId, spec.name, refreshedState);
  } catch (error) {
    await pipeline.drain().catch(() => undefined);
    // What the last state reached vouches for is written: the next attempt resumes from there.
    await checkpoints.flush().catch(() => undefined);
    await writer.abort().catch(() => undefined);
    throw error;
  }
  await context.log(`${spec.name}: ${written} records written to ${table}`);
  for (const [field, count] of mapping.nulled) await context.log(`${spec.name}: ${count} values of ${field} could not be mapped and were written as NULL`);
}

function describeRead(incremental: boolean, refresh: boolean, table: string, state: SavedState | undefined): string {
  if (!incremental) return `full refresh of ${table}`;
  if (refresh) return `refresh of ${table} from the start`;
  return `incremental into ${table}${Object.keys(state ?? {}).length > 0 ? ', from saved state' : ''}`;
}
