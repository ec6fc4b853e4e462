import { SlackError } from '../errors.ts';
import { characterCount } from '../names.ts';
import { formatTs, parseTs } from '../slack-ts.ts';
import type { SandboxMessage, SlackAttachment } from '../types.ts';
import { messageToWire } from '../wire.ts';
import { requireChannel, type MethodContext, type MethodDef } from './context.ts';

const MAX_TEXT = 40_000;
const MAX_ATTACHMENTS = 100;

/**
 * blocks/attachments arrive as a JSON-encoded string in query and form arguments and as a real array
 * in JSON bodies; both must end up as an array of objects.
 */
function jsonArrayArg(ctx: MethodContext, name: string, error: string): Record<string, unknown>[] | undefined {
  let value = ctx.args.value(name);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw new SlackError(error);
    }
  }
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'object' || v === null || Array.isArray(v))) {
    throw new SlackError(error);
  }
  return value as Record<string, unknown>[];
}

interface Content {
  text: string | undefined;
  blocks: Record<string, unknown>[] | undefined;
  attachments: SlackAttachment[] | undefined;
}

function readContent(ctx: MethodContext): Content {
  const text = ctx.args.str('text');
  const blocks = jsonArrayArg(ctx, 'blocks', 'invalid_blocks');
  if (blocks?.some((b) => typeof b.type !== 'string')) throw new SlackError('invalid_blocks');
  const rawAttachments = jsonArrayArg(ctx, 'attachments', 'invalid_attachments');
  if (rawAttachments && rawAttachments.length > MAX_ATTACHMENTS) throw new SlackError('too_many_attachments');
  // Slack numbers attachments itself; callers never send ids.
  const attachments = rawAttachments?.map((a, i): SlackAttachment => ({ ...a, id: i + 1 }));
  if ((text === undefined || text === '') && !blocks?.length && !attachments?.length) throw new SlackError('no_text');
  if (text !== undefined && characterCount(text) > MAX_TEXT) throw new SlackError('msg_too_long');
  return { text, blocks, attachments };
}

export const chatPostMessage: MethodDef = {
  write: true,
  handle(ctx) {
    const { store, args } = ctx;
    // Slack accepts a channel name as well as an id here.
    const channel = store.channelByNameOrId(args.str('channel'));
    if (!channel) throw new SlackError('channel_not_found');
    const content = readContent(ctx);
    if (channel.is_archived) throw new SlackError('is_archived');
    if (!store.isBotMember(channel)) throw new SlackError('not_in_channel');

    let root: SandboxMessage | undefined;
    const threadTs = args.str('thread_ts');
    if (threadTs !== undefined) {
      const micros = parseTs(threadTs);
      if (micros === null || micros === 0) throw new SlackError('invalid_thread_ts');
      const target = store.findMessage(channel.id, formatTs(micros));
      if (!target) throw new SlackError('thread_not_found');
      // Replying to a reply lands in the same thread.
      root = store.threadRoot(channel.id, target);
    }

    const bot = store.botByUserId(store.botUserId);
    const micros = store.nextMicros();
    const message: SandboxMessage = {
      channel: channel.id,
      ts: formatTs(micros),
      micros,
      type: 'message',
      user: store.botUserId,
      text: content.text ?? '',
      team: store.team.id,
    };
    if (bot) {
      message.bot_id = bot.bot_id;
      message.app_id = bot.app_id;
    }
    if (content.blocks) message.blocks = content.blocks;
    if (content.attachments) message.attachments = content.attachments;
    if (root) {
      message.thread_ts = root.ts;
      message.parent_user_id = root.user;
      if (args.bool('reply_broadcast', false)) message.subtype = 'thread_broadcast';
    }
    store.append(channel.id, message);
    return { ok: true, channel: channel.id, ts: message.ts, message: messageToWire(store, message) };
  },
};

export const chatUpdate: MethodDef = {
  write: true,
  handle(ctx) {
    const { store, args } = ctx;
    const channel = requireChannel(ctx);
    const ts = parseTs(args.str('ts'));
    const message = ts === null ? undefined : store.findMessage(channel.id, formatTs(ts));
    if (!message) throw new SlackError('message_not_found');
    // Only the token's own ordinary messages are editable; system messages never are.
    if (message.user !== store.botUserId || (message.subtype !== undefined && message.subtype !== 'thread_broadcast')) {
      throw new SlackError('cant_update_message');
    }
    const content = readContent(ctx);
    message.text = content.text ?? '';
    // Omitted blocks/attachments keep their previous value, as Slack documents for attachments.
    if (content.blocks) message.blocks = content.blocks;
    if (content.attachments) message.attachments = content.attachments;
    message.edited = { user: store.botUserId, ts: formatTs(store.nextMicros()) };
    const { ts: _ts, ...wire } = messageToWire(store, message);
    return { ok: true, channel: channel.id, ts: message.ts, text: message.text, message: wire };
  },
};
