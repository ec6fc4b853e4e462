import { SlackError } from '../errors.ts';
import { formatTs, parseTs } from '../slack-ts.ts';
import { EMOJI_ALIASES, EMOJI_NAMES } from '../vocab.ts';
import type { MethodDef } from './context.ts';

export const reactionsAdd: MethodDef = {
  write: true,
  handle({ store, args }) {
    const channelId = args.str('channel');
    const timestamp = args.str('timestamp');
    // Slack reports a missing target (channel or timestamp) as "no item specified".
    if (channelId === undefined || timestamp === undefined) throw new SlackError('no_item_specified');
    const rawName = (args.str('name') ?? '').replace(/^:|:$/g, '');
    if (!EMOJI_NAMES.has(rawName)) throw new SlackError('invalid_name');
    const micros = parseTs(timestamp);
    if (micros === null) throw new SlackError('bad_timestamp');
    const channel = store.visibleChannel(channelId);
    if (!channel) throw new SlackError('channel_not_found');
    const message = store.findMessage(channel.id, formatTs(micros));
    if (!message) throw new SlackError('message_not_found');
    if (channel.is_archived) throw new SlackError('is_archived');

    const name = EMOJI_ALIASES[rawName] ?? rawName;
    const reactions = message.reactions ?? [];
    const existing = reactions.find((r) => r.name === name);
    if (existing?.users.includes(store.botUserId)) throw new SlackError('already_reacted');
    if (existing) {
      existing.users.push(store.botUserId);
      existing.count++;
    } else {
      reactions.push({ name, users: [store.botUserId], count: 1 });
    }
    message.reactions = reactions;
    return { ok: true };
  },
};
