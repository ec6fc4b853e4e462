import { defaultSyncMode } from '../core/hosted/cloud-api/default-sync-mode.ts';
import type { PublicStreamConfiguration, PublicStreamProperty } from '../core/hosted/types.generated.ts';

export type SyncMode = NonNullable<PublicStreamConfiguration['syncMode']>;

/** One stream chosen for a connection: its sync mode, and its fields (undefined: all of them). */
export interface StreamChoice {
  syncMode: SyncMode;
  fields?: string[];
}

/** The streams chosen, by name: a stream absent from it is not synced. */
export type StreamDraft = Record<string, StreamChoice>;

/** The API's own default mode for the stream (default-sync-mode.ts). */
export function defaultMode(property: PublicStreamProperty): SyncMode {
  return defaultSyncMode(property.syncModes) ?? 'full_refresh_overwrite';
}

/** The draft a connection's configured streams make; none configured means every stream of the source, each in its default mode. */
export function draftOf(configured: PublicStreamConfiguration[] | undefined, properties: PublicStreamProperty[]): StreamDraft {
  if (!configured?.length) return Object.fromEntries(properties.map((property) => [property.streamName, { syncMode: defaultMode(property) }]));
  const draft: StreamDraft = {};
  for (const stream of configured) {
    const property = properties.find((candidate) => candidate.streamName === stream.name);
    const fields = stream.selectedFields?.map((field) => field.fieldPath?.[0]).filter((name): name is string => name !== undefined);
    draft[stream.name] = {
      syncMode: stream.syncMode ?? (property ? defaultMode(property) : 'full_refresh_overwrite'),
      ...(fields?.length ? { fields } : {}),
    };
  }
  return draft;
}

/**
 * The request's `configurations.streams`, in the source's order; a stream kept keeps what the editor
 * does not show (its mappers). Cursor and primary key are left out: the source fixes them.
 */
export function streamsOf(draft: StreamDraft, properties: PublicStreamProperty[], configured: PublicStreamConfiguration[] = []): PublicStreamConfiguration[] {
  return properties
    .filter((property) => draft[property.streamName])
    .map((property) => {
      const choice = draft[property.streamName]!;
      const before = configured.find((stream) => stream.name === property.streamName);
      const { cursorField: _cursor, primaryKey: _key, selectedFields: _fields, syncMode: _mode, ...kept } = before ?? { name: property.streamName };
      return {
        ...kept,
        name: property.streamName,
        syncMode: choice.syncMode,
        ...(choice.fields ? { selectedFields: choice.fields.map((field) => ({ fieldPath: [field] })) } : {}),
      };
    });
}
