import type { StoredRecord, SyncStreamSettings } from '../../core/sdk/index.ts';

const DAY_SECONDS = 86_400;

/**
 * How the sync engine reads Slack: users and channels whole; each readable channel's messages
 * incrementally by `ts` (from the newest seen less `lookback_window` days, never before
 * `start_date`); the threads of messages that have replies.
 */
export const chatSyncStreams: Record<string, SyncStreamSettings> = {
  users: { params: { limit: 1000 } },
  channels: { params: { limit: 1000, types: 'public_channel,private_channel,mpim,im' } },
  channel_messages: {
    params: { limit: 999 },
    primaryKey: ['channel_id', 'ts'],
    parent: { stream: 'channels', params: { channel: 'id' }, fields: { channel_id: 'id' }, include: readableChannel },
    incremental: { cursorField: 'ts', startParam: 'oldest', startFrom: oldestToRead },
  },
  threads: {
    params: { limit: 1000 },
    primaryKey: ['channel_id', 'ts'],
    parent: {
      stream: 'channel_messages',
      params: { channel: 'channel_id', ts: 'ts' },
      fields: { channel_id: 'channel_id' },
      include: (message) => Number(message.reply_count ?? 0) > 0,
    },
  },
};

/** Channels whose history the bot can read (it is a member, or it is a DM), narrowed by the source's `channel_filter` (names). */
function readableChannel(channel: StoredRecord, settings: Record<string, unknown>): boolean {
  const filter = Array.isArray(settings.channel_filter) ? (settings.channel_filter as string[]) : [];
  if (filter.length > 0 && !filter.includes(String(channel.name))) return false;
  return channel.is_member === true || channel.is_im === true || channel.is_mpim === true;
}

/** The newest message synced less the lookback window, never before `start_date`; nothing on a first sync without a start date. */
function oldestToRead(cursor: string | undefined, settings: Record<string, unknown>): string | undefined {
  const start = typeof settings.start_date === 'string' ? Date.parse(settings.start_date) / 1000 : 0;
  const lookback = (typeof settings.lookback_window === 'number' ? settings.lookback_window : 0) * DAY_SECONDS;
  const oldest = Math.max(start, cursor === undefined ? 0 : Number(cursor) - lookback);
  return oldest > 0 ? oldest.toFixed(6) : undefined;
}
