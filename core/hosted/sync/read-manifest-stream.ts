import type { ManifestRunner } from '../../manifests/connector/manifest-runner.ts';
import type { StoredRecord } from '../../sdk/index.ts';
import type { EgressPolicy } from '../../security/egress/egress-policy.ts';
import type { SavedState } from './sync-states.ts';
import type { SyncStreamSpec } from './sync-streams.ts';
import type { ManifestSyncSource } from './sync-target.ts';

/** A stream read yields records in pages, and the state that vouches for everything yielded before it. */
export type SyncItem = { records: StoredRecord[] } | { state: SavedState };

/** Reads one stream whole (`state` undefined: a full refresh, no state given) or from its saved state. */
export type StreamRead = (stream: SyncStreamSpec, state: SavedState | undefined) => AsyncGenerator<SyncItem>;

/** Records handed to the writer at most at once (the engine's write batch); a state cuts a page short. */
const PAGE_SIZE = 1000;

/**
 * An Airbyte manifest source's streams as the sync engine reads them: the interpreter reads each from
 * its saved `stream_state` (Airbyte's per-stream format, saved as it is), its records handed on in
 * pages, each state after the records it vouches for. A renewed configuration (a rotated single-use
 * refresh token) is what later reads of the attempt use, and is kept as the source's (`keepConfig`).
 */
export function manifestStreamRead(runner: ManifestRunner, source: ManifestSyncSource, options: { egress: EgressPolicy; signal?: AbortSignal }): StreamRead {
  let config = source.config;
  return async function* read(stream, state) {
    const incremental = state !== undefined;
    // An empty state is a first incremental read: from the manifest's own start.
    const from = state !== undefined && Object.keys(state).length > 0 ? { state } : {};
    const messages = runner.instance(config, { egress: options.egress }).read(stream.name, { ...from, ...(options.signal ? { signal: options.signal } : {}) });
    let page: StoredRecord[] = [];
    for await (const message of messages) {
      if (message.type === 'record') {
        page.push(message.record);
        if (page.length < PAGE_SIZE) continue;
      } else if (message.type === 'config') {
        config = message.config;
        await source.keepConfig?.(config);
        continue;
      }
      if (page.length > 0) yield { records: page };
      page = [];
      // A full refresh keeps no state, as a Plugboard connector's does not.
      if (message.type === 'state' && incremental) yield { state: message.state };
    }
    if (page.length > 0) yield { records: page };
  };
}
