/**
 * Reading a loaded manifest's stream: `readStream(manifest, name, {config, state})` yields its records
 * as pages arrive and its state checkpoints in Airbyte's per-stream format; handing the last state
 * back to the next read resumes where this one stopped.
 */
import { NotFoundError } from '../../errors.ts';
import type { LoadedManifest } from '../load-manifest.ts';
import type { DeclarativeStream } from '../model.ts';
import { createRuntime, type ReadRuntime, type RuntimeOptions } from './read-runtime.ts';
import { readStreamMessages, type StreamReadOptions } from './stream-reader.ts';
import { type StreamState, streamStateOf } from './stream-state.ts';

export type ReadMessage =
  | { type: 'record'; record: Record<string, unknown> }
  /** The stream's `stream_state`: what the next read takes as `state`. */
  | { type: 'state'; state: StreamState }
  /** The config changed during the read (a single-use refresh token was renewed): the caller must keep this one. */
  | { type: 'config'; config: Record<string, unknown> };

export interface ReadOptions extends Omit<RuntimeOptions, 'config'> {
  /** The source's configuration (`config` in templates), as its spec describes it. */
  config: Record<string, unknown>;
  /** The saved state: the last `state` message's value, or Airbyte state messages (one, or a list naming streams). */
  state?: unknown;
}

export function findStream(manifest: LoadedManifest, streamName: string): DeclarativeStream {
  const stream = manifest.source.streams.find((candidate) => candidate.name === streamName);
  if (!stream) throw new NotFoundError(`The manifest ${manifest.name} has no stream ${JSON.stringify(streamName)}`, 'manifest_stream_not_found');
  return stream;
}

/** Records and state checkpoints of one stream, read page by page: nothing is fetched (nor the stream looked up) before the consumer asks for it. */
export function readStream(manifest: LoadedManifest, streamName: string, options: ReadOptions): AsyncGenerator<ReadMessage> {
  return streamMessages(() => {
    const stream = findStream(manifest, streamName);
    const runtime = createRuntime(options);
    const state = streamStateOf(options.state, streamName);
    return { stream, runtime, options: state ? { state } : {} };
  });
}

/** The stream's messages without their slices, config updates handed over as soon as they happen. */
export function runStream(stream: DeclarativeStream, runtime: ReadRuntime, options: StreamReadOptions): AsyncGenerator<ReadMessage> {
  return streamMessages(() => ({ stream, runtime, options }));
}

interface StreamRun {
  stream: DeclarativeStream;
  runtime: ReadRuntime;
  options: StreamReadOptions;
}

/**
 * The one generator between the reader and the caller: every record passes through each generator
 * layer on its way out, so `readStream` does not wrap `runStream` in another; `open` runs on the first `next()`.
 */
async function* streamMessages(open: () => StreamRun): AsyncGenerator<ReadMessage> {
  const { stream, runtime, options } = open();
  for await (const message of readStreamMessages(stream, runtime, options)) {
    while (runtime.configUpdates.length > 0) yield { type: 'config', config: runtime.configUpdates.shift()!.config };
    if (message.type === 'state') {
      yield { type: 'state', state: message.state };
      continue;
    }
    for (const record of message.records) {
      // An abort stops the read at once, not at the end of the page in hand.
      runtime.signal?.throwIfAborted();
      yield { type: 'record', record };
    }
  }
  while (runtime.configUpdates.length > 0) yield { type: 'config', config: runtime.configUpdates.shift()!.config };
}
