import type { OAuthCredentials, TokenCredentials } from '../../sdk/index.ts';
import type { PublicStreamMapper } from '../types.generated.ts';
import type { DestinationType } from './destinations/destination.ts';

/** How a connection reads one stream, as its `configurations.streams[]` entry says. */
export interface SelectedStream {
  name: string;
  /** The public API's sync modes that Plugboard runs: full refresh (overwrite) or incremental (deduped by primary key). */
  syncMode: 'full_refresh_overwrite' | 'incremental_append' | 'incremental_deduped_history';
  /** The top-level fields written (none: all); the primary key and cursor are written whatever it says. */
  selectedFields?: string[];
  /** Applied in order to each record before it is written (mappers/), each with its id. */
  mappers?: Array<PublicStreamMapper & { id: string }>;
}

/** A Plugboard connector's source: read with its credentials and settings. */
export interface ConnectorSyncSource {
  sourceId: string;
  /** The Plugboard connector type (`chat`, `file-storage`, a plugin's), whatever name the source was created with. */
  connectorType: string;
  credentials: OAuthCredentials | TokenCredentials;
  /** The connector's read settings (chat: start_date, lookback_window, join_channels, channel_filter...). */
  settings: Record<string, unknown>;
}

/** An Airbyte manifest's source (a published declarative definition): read with its configuration, in its spec's shape. */
export interface ManifestSyncSource {
  sourceId: string;
  /** The runtime type the definition's version registered as. */
  connectorType: string;
  /** What the manifest's templates read as `config`, secrets opened. */
  config: Record<string, unknown>;
  /**
   * Keeps a configuration a read renewed (a rotated single-use refresh token) as the source's, so the
   * next sync starts from it; without it, the renewal lasts as long as the attempt.
   */
  keepConfig?(config: Record<string, unknown>): Promise<void>;
}

export type SyncSource = ConnectorSyncSource | ManifestSyncSource;

/**
 * Everything a sync job needs about its connection, secrets opened: what to read (the source's
 * connector type and what it reads with), what to write to, and which streams.
 */
export interface SyncTarget {
  connectionId: string;
  workspaceId: string;
  /** Prepended to each stream's table name. */
  prefix: string;
  streams: SelectedStream[];
  source: SyncSource;
  destination: {
    destinationId: string;
    destinationType: DestinationType;
    /** The destination's configuration as the public API takes it (secrets opened). */
    configuration: Record<string, unknown>;
  };
}
