import type { OAuthCredentials, TokenCredentials } from '../../sdk/index.ts';
import type { DestinationType } from './destinations/destination.ts';

/** How a connection reads one stream, as its `configurations.streams[]` entry says. */
export interface SelectedStream {
  name: string;
  /** The public API's sync modes that Plugboard runs: full refresh (overwrite) or incremental (deduped by primary key). */
  syncMode: 'full_refresh_overwrite' | 'incremental_append' | 'incremental_deduped_history';
}

/**
 * Everything a sync job needs about its connection, secrets opened: what to read (the source's
 * connector type, credentials and settings), what to write to, and which streams.
 */
export interface SyncTarget {
  connectionId: string;
  workspaceId: string;
  /** Prepended to each stream's table name. */
  prefix: string;
  streams: SelectedStream[];
  source: {
    sourceId: string;
    /** The Plugboard connector type (`chat`, `file-storage`, a plugin's), whatever name the source was created with. */
    connectorType: string;
    credentials: OAuthCredentials | TokenCredentials;
    /** The connector's read settings (chat: start_date, lookback_window, join_channels, channel_filter...). */
    settings: Record<string, unknown>;
  };
  destination: {
    destinationId: string;
    destinationType: DestinationType;
    /** The destination's configuration as the public API takes it (secrets opened). */
    configuration: Record<string, unknown>;
  };
}
