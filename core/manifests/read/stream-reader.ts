/**
 * Reads one declarative stream: its partitions (partition-routers.ts), for each its cursor's slices
 * (datetime-cursor.ts), for each slice its pages (retriever.ts), yielding records as pages arrive and
 * state checkpoints as slices close:
 * - no cursor: records only, then Airbyte's "no cursor" state;
 * - a cursor alone: `{<cursor_field>: value}` after each slice;
 * - a cursor and partitions: the CDK's per-partition state (each partition's cursor, the global cursor
 *   committed at the end, the read's duration as `lookback_window`, the parents' states under
 *   `parent_state` with incremental_dependency), checkpointed after a partition at most once a minute
 *   and always at the end; `global_substream_cursor` keeps the global cursor alone.
 */
import type { DeclarativeStream } from '../model.ts';
import { compare, type PyDateTime } from './datetimes.ts';
import { type CursorRun, DatetimeCursor } from './datetime-cursor.ts';
import { type ParentMessage, type Partition, partitionSource } from './partition-routers.ts';
import type { ReadRuntime } from './read-runtime.ts';
import type { StreamRecord } from './record-selector.ts';
import { Retriever } from './retriever.ts';
import { partitionKey, readPartitionedState, type StreamState } from './stream-state.ts';
import { StreamSlice } from './templates.ts';

export type StreamMessage = ParentMessage;

export interface StreamReadOptions {
  state?: StreamState;
  /** A connection check: the first partition's first slice's first page only. */
  probe?: boolean;
}

/** Airbyte's state of a stream without a cursor. */
export const NO_CURSOR_STATE: StreamState = { __ab_no_cursor_state_message: true };

/** How often a partitioned stream's growing state is checkpointed between partitions (real time, as the CDK throttles it). */
const PARTITION_CHECKPOINT_MS = 60_000;

type ReadParent = (parent: DeclarativeStream, state: StreamState | undefined) => AsyncIterable<StreamMessage>;

export async function* readStreamMessages(stream: DeclarativeStream, runtime: ReadRuntime, options: StreamReadOptions = {}): AsyncGenerator<StreamMessage> {
  const retriever = new Retriever(stream, runtime);
  const cursor = stream.incremental_sync ? new DatetimeCursor(stream.incremental_sync, runtime) : undefined;
  const router = stream.retriever.partition_router;
  const routed = router !== undefined && router !== null && !(Array.isArray(router) && router.length === 0);
  const probe = options.probe === true;
  const readParent: ReadParent = (parent, state) => readStreamMessages(parent, runtime, { ...(state ? { state } : {}), probe });

  if (!cursor) {
    const source = partitionSource(router, runtime, readParent, undefined);
    for await (const partition of source.partitions()) {
      const slice = sliceOf(partition, {});
      for await (const records of retriever.read(slice, { sliceOptions: partition.options, firstPageOnly: probe })) yield { type: 'records', records, slice };
      if (probe) return;
    }
    yield { type: 'state', state: NO_CURSOR_STATE };
    return;
  }

  if (!routed) {
    const run = cursor.open(options.state);
    let checkpointed = false;
    for (const cursorSlice of run.slices()) {
      yield* readCursorSlice(retriever, cursor, run, sliceOf(undefined, cursorSlice), [], probe);
      yield { type: 'state', state: run.state() };
      checkpointed = true;
      if (probe) return;
    }
    if (!checkpointed) yield { type: 'state', state: run.state() };
    return;
  }

  yield* readPartitioned(stream, cursor, retriever, runtime, readParent, options);
}

async function* readPartitioned(
  stream: DeclarativeStream,
  cursor: DatetimeCursor,
  retriever: Retriever,
  runtime: ReadRuntime,
  readParent: ReadParent,
  options: StreamReadOptions,
): AsyncGenerator<StreamMessage> {
  const saved = readPartitionedState(options.state);
  const useGlobal = saved.useGlobal || cursor.component.global_substream_cursor === true;
  const source = partitionSource(stream.retriever.partition_router, runtime, readParent, saved.parentState);
  const entries = new Map(saved.byPartition);
  // The read's duration, in whole seconds of real time as the CDK's timer counts it, widens the next read's global cursor.
  const started = performance.now();
  let globalLatest: PyDateTime | undefined = saved.global ? cursor.parse(saved.global[cursor.field]) : undefined;
  const observeGlobal = (value: PyDateTime) => {
    if (!globalLatest || compare(value, globalLatest) > 0) globalLatest = value;
  };
  let lastCheckpoint = Date.now();

  const stateNow = (final: boolean): StreamState => {
    const state: StreamState = useGlobal ? {} : { use_global_cursor: false, states: [...entries.values()] };
    if (final) {
      // The global cursor and the read's duration are committed when the whole read is done.
      const global = globalLatest ? { ...saved.global, [cursor.field]: cursor.formatValue(globalLatest) } : saved.global;
      if (global) state.state = global;
      state.lookback_window = Math.floor((performance.now() - started) / 1000);
    } else {
      if (saved.global) state.state = saved.global;
      if (saved.lookbackSeconds > 0) state.lookback_window = saved.lookbackSeconds;
    }
    const parents = source.parentState();
    if (parents) state.parent_state = parents;
    return state;
  };

  for await (const partition of source.partitions()) {
    const key = partitionKey(partition.partition);
    const own = useGlobal ? undefined : entries.get(key)?.cursor;
    // A partition without a cursor of its own starts from the global one, widened by the last read's duration.
    const run = cursor.open(own ?? saved.global, own ? 0 : saved.lookbackSeconds);
    for (const cursorSlice of run.slices()) {
      yield* readCursorSlice(retriever, cursor, run, sliceOf(partition, cursorSlice), partition.options, options.probe === true, observeGlobal);
      if (options.probe) return;
    }
    if (!useGlobal) entries.set(key, { partition: partition.partition, cursor: run.state() });
    if (Date.now() - lastCheckpoint >= PARTITION_CHECKPOINT_MS) {
      lastCheckpoint = Date.now();
      yield { type: 'state', state: stateNow(false) };
    }
  }
  yield { type: 'state', state: stateNow(true) };
}

async function* readCursorSlice(
  retriever: Retriever,
  cursor: DatetimeCursor,
  run: CursorRun,
  slice: StreamSlice,
  partitionOptions: Partition['options'],
  firstPageOnly: boolean,
  observed?: (value: PyDateTime) => void,
): AsyncGenerator<StreamMessage> {
  const { component } = cursor;
  const clientSide = component.is_client_side_incremental === true;
  const records = retriever.read(slice, {
    sliceOptions: [...partitionOptions, ...cursor.requestOptions(slice.cursor_slice as Record<string, string>)],
    ...(component.is_data_feed ? { keepPaging: (record: StreamRecord) => run.inRange(run.valueOf(record)) } : {}),
    firstPageOnly,
  });
  for await (const page of records) {
    const kept: StreamRecord[] = [];
    for (const record of page) {
      const value = run.valueOf(record);
      if (clientSide && !run.inRange(value)) continue;
      run.observe(value);
      if (value && observed) observed(value);
      kept.push(record);
    }
    if (kept.length > 0) yield { type: 'records', records: kept, slice };
  }
}

function sliceOf(partition: Partition | undefined, cursorSlice: Record<string, string>): StreamSlice {
  return new StreamSlice({ partition: partition?.partition ?? {}, cursor_slice: cursorSlice, extra_fields: partition?.extraFields ?? {} });
}
