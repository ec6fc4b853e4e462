import type { SyncStreamSpec } from '../sync/sync-streams.ts';
import type { PublicStreamProperty } from '../types.generated.ts';
import { sourceDefinedCursor, streamKeys } from './connection-streams.ts';

/** Where a source's streams come from, and how a destination is found (either a 404 when it is not the organization's). */
export interface StreamCatalogs {
  streamsOfSource(organizationId: string, sourceId: string): Promise<SyncStreamSpec[]>;
  destinationExists(organizationId: string, destinationId: string): Promise<void>;
}

/**
 * The public API's stream properties of a source: each sync stream its connector (or manifest)
 * offers, the way connections take them. The modes are the stream's own whether or not a destination
 * is named, since every destination here writes them all; the catalog is always the connector's
 * current one, so there is no cache to ignore.
 */
export class PublicStreams {
  constructor(private readonly catalogs: StreamCatalogs) {}

  async properties(organizationId: string, sourceId: string, destinationId?: string): Promise<PublicStreamProperty[]> {
    const streams = await this.catalogs.streamsOfSource(organizationId, sourceId);
    if (destinationId !== undefined) await this.catalogs.destinationExists(organizationId, destinationId);
    return streams.map(streamProperty);
  }
}

function streamProperty(stream: SyncStreamSpec): PublicStreamProperty {
  const { cursorField, primaryKey } = streamKeys(stream);
  return {
    streamName: stream.name,
    syncModes: [...stream.supportedSyncModes],
    defaultCursorField: cursorField,
    sourceDefinedCursorField: sourceDefinedCursor(stream),
    sourceDefinedPrimaryKey: primaryKey,
    propertyFields: stream.columns.map((column) => [column.name]),
  };
}
