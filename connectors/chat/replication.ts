import type { ReplicationContext, StoredRecord } from '../../core/sdk/index.ts';

/** The chat replication_config (schemas/chat/replication-config.json); a connector created without one reads all history once, then only what is new. */
interface ChatReplicationConfig {
  start_date?: string;
  lookback_window?: number;
  join_channels?: boolean;
}

const DAY_SECONDS = 86_400;
const PAGE = { users: 1000, channels: 1000, history: 999 };
/** Threads read at once, and thread messages stored per write. */
const THREAD_CONCURRENCY = 8;
const CHANNEL_CONCURRENCY = 4;
const THREAD_BATCH = 1000;

/**
 * Fills the context store from the Slack Web API: users and channels whole (what left Slack leaves
 * the store), then each readable channel's messages and thread replies incrementally, from a
 * per-channel checkpoint (the newest message read) less `lookback_window` days, never before
 * `start_date`. With `join_channels`, the bot first joins the public channels it is not in.
 */
export async function replicateChat(context: ReplicationContext): Promise<void> {
  const config = (context.config ?? {}) as ChatReplicationConfig;
  await context.replaceAll('users', context.list('users', 'list', { limit: PAGE.users }));
  const channels: StoredRecord[] = [];
  await context.replaceAll(
    'channels',
    collect(context.list('channels', 'list', { limit: PAGE.channels, types: 'public_channel,private_channel,mpim,im' }), channels),
  );
  const startSeconds = config.start_date ? Date.parse(config.start_date) / 1000 : 0;
  const lookbackSeconds = (config.lookback_window ?? 0) * DAY_SECONDS;
  const readableSet = new Set<StoredRecord>();
  await inParallel(channels, CHANNEL_CONCURRENCY, async (channel) => {
    if (await readable(context, channel, config.join_channels === true)) readableSet.add(channel);
  });
  const readableChannels = channels.filter((channel) => readableSet.has(channel));
  // A few channels at once: one channel's upstream calls overlap another's writes.
  await inParallel(readableChannels, CHANNEL_CONCURRENCY, (channel) => replicateChannel(context, String(channel.id), startSeconds, lookbackSeconds));
  await context.entityDone('channel_messages');
  await context.entityDone('threads');
}

/** One channel's messages since its checkpoint (less the lookback, never before start_date), and their threads. */
async function replicateChannel(context: ReplicationContext, id: string, startSeconds: number, lookbackSeconds: number): Promise<void> {
  const checkpoint = Number((await context.checkpoint(`messages:${id}`)) ?? 0);
  const oldest = Math.max(startSeconds, checkpoint - lookbackSeconds);
  let newest = checkpoint;
  const range = { channel: id, limit: PAGE.history, ...(oldest > 0 ? { oldest: oldest.toFixed(6) } : {}) };
  let batch: StoredRecord[] = [];
  const threads = new ThreadReader(context, id, range);
  const flush = async () => {
    await context.upsert('channel_messages', batch);
    await threads.read(batch.filter((message) => Number(message.reply_count ?? 0) > 0).map((parent) => String(parent.ts)));
    batch = [];
  };
  for await (const message of context.list('channel_messages', 'list', range)) {
    batch.push({ ...message, channel_id: id });
    newest = Math.max(newest, Number(message.ts));
    if (batch.length >= PAGE.history) await flush();
  }
  await flush();
  await threads.flush();
  // Saved once the channel is stored: an interrupted run reads the channel again from the old checkpoint.
  await context.saveCheckpoint(`messages:${id}`, newest.toFixed(6));
}

/** Runs `work` on every item, at most `limit` at once. */
async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Reads a channel's threads (parent and replies, with the channel id the upstream record lacks) a few at once, storing them in batches. */
class ThreadReader {
  private pending: StoredRecord[] = [];

  constructor(
    private readonly context: ReplicationContext,
    private readonly channel: string,
    private readonly range: Record<string, unknown>,
  ) {}

  async read(parents: string[]): Promise<void> {
    for (let start = 0; start < parents.length; start += THREAD_CONCURRENCY) {
      const threads = await Promise.all(parents.slice(start, start + THREAD_CONCURRENCY).map((ts) => this.thread(ts)));
      this.pending.push(...threads.flat());
      if (this.pending.length >= THREAD_BATCH) await this.flush();
    }
  }

  async flush(): Promise<void> {
    if (this.pending.length > 0) await this.context.upsert('threads', this.pending);
    this.pending = [];
  }

  private async thread(ts: string): Promise<StoredRecord[]> {
    const messages: StoredRecord[] = [];
    for await (const message of this.context.list('threads', 'list', { ...this.range, ts })) messages.push({ ...message, channel_id: this.channel });
    return messages;
  }
}

/** Whether the bot can read the channel's history, joining it first when allowed (public, not archived). */
async function readable(context: ReplicationContext, channel: StoredRecord, join: boolean): Promise<boolean> {
  if (channel.is_member === true || channel.is_im === true || channel.is_mpim === true) return true;
  if (!join || channel.is_archived === true || channel.is_private === true || channel.is_channel !== true) return false;
  await context.upstream.requestJson({ method: 'POST', path: '/conversations.join', body: 'form' }, { channel: channel.id });
  return true;
}

/** Passes records through while keeping them: channels are listed once, for both their entity and their messages. */
async function* collect(records: AsyncIterable<StoredRecord>, into: StoredRecord[]): AsyncGenerator<StoredRecord> {
  for await (const record of records) {
    into.push(record);
    yield record;
  }
}
