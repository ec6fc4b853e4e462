/**
 * Stream state in Airbyte's per-stream format. What a caller saves is the `stream_state` of the last
 * state message; it may also hand back Airbyte's own state messages (`{type: STREAM, stream:
 * {stream_descriptor, stream_state}}`, one or a list). For a partitioned incremental stream the state
 * is the CDK's per-partition form: `{use_global_cursor, states: [{partition, cursor}], state,
 * lookback_window, parent_state}`; a state without `states` or `state` is one cursor for every partition.
 */

import { isObject } from '../json-values.ts';

export type StreamState = Record<string, unknown>;

/** Airbyte's per-stream state message body (`state` of a STATE message, an item of a `--state` file). */
export interface AirbyteStreamState {
  type: 'STREAM';
  stream: { stream_descriptor: { name: string; namespace?: string | null }; stream_state: StreamState };
}

/** The stream's own state out of what a caller passes: a stream_state, an Airbyte state message, or a list of them. */
export function streamStateOf(input: unknown, streamName: string): StreamState | undefined {
  if (input === undefined || input === null) return undefined;
  const messages = Array.isArray(input) ? input : isAirbyteState(input) ? [input] : undefined;
  if (messages === undefined) return isObject(input) ? input : undefined;
  for (const message of messages) {
    if (isAirbyteState(message) && message.stream.stream_descriptor.name === streamName) return message.stream.stream_state ?? undefined;
  }
  return undefined;
}

/** The Airbyte state message body for a stream's state, to store as Airbyte does. */
export function toAirbyteStreamState(streamName: string, state: StreamState): AirbyteStreamState {
  return { type: 'STREAM', stream: { stream_descriptor: { name: streamName, namespace: null }, stream_state: state } };
}

function isAirbyteState(value: unknown): value is AirbyteStreamState {
  if (!isObject(value) || value.type !== 'STREAM' || !isObject(value.stream)) return false;
  const descriptor = value.stream.stream_descriptor;
  return isObject(descriptor) && typeof descriptor.name === 'string';
}

/** A partition's identity in per-partition state: its JSON with keys sorted at every level. */
export function partitionKey(partition: unknown): string {
  return JSON.stringify(sorted(partition));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}

/** The saved per-partition cursors, the global cursor and the rest, read from a partitioned stream's state. */
export interface PartitionedState {
  byPartition: Map<string, { partition: unknown; cursor: StreamState }>;
  global: StreamState | undefined;
  useGlobal: boolean;
  /** Seconds: the previous read's duration, widening the global cursor's lookback. */
  lookbackSeconds: number;
  parentState: Record<string, unknown> | undefined;
}

export function readPartitionedState(state: StreamState | undefined): PartitionedState {
  const byPartition = new Map<string, { partition: unknown; cursor: StreamState }>();
  if (!state) return { byPartition, global: undefined, useGlobal: false, lookbackSeconds: 0, parentState: undefined };
  const parentState = isObject(state.parent_state) ? state.parent_state : undefined;
  if (!('states' in state) && !('state' in state)) {
    // The whole state is one cursor for every partition (a state saved before the stream had partitions).
    const { parent_state: _parent, ...cursor } = state;
    return { byPartition, global: Object.keys(cursor).length ? cursor : undefined, useGlobal: false, lookbackSeconds: 0, parentState };
  }
  for (const entry of Array.isArray(state.states) ? state.states : []) {
    if (isObject(entry) && isObject(entry.cursor)) byPartition.set(partitionKey(entry.partition), { partition: entry.partition, cursor: entry.cursor });
  }
  const lookback = Number(state.lookback_window);
  return {
    byPartition,
    global: isObject(state.state) ? state.state : undefined,
    useGlobal: state.use_global_cursor === true,
    lookbackSeconds: Number.isFinite(lookback) && lookback > 0 ? lookback : 0,
    parentState,
  };
}
