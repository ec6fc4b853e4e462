import { defineAction } from '../../../core/sdk/index.ts';
import topicParams from '../../../schemas/chat/params/channel_topics.create.json' with { type: 'json' };
import purposeParams from '../../../schemas/chat/params/channel_purposes.create.json' with { type: 'json' };
import channel from '../../../schemas/chat/records/channel.json' with { type: 'json' };

/** Topic and purpose are entities of their own, each with one `create` (set it); both answer with the updated channel. */
export const channelSettingsActions = [
  defineAction({
    entity: 'channel_topics',
    action: 'create',
    description: "Set a channel's topic (conversations.setTopic).",
    params: topicParams,
    record: channel,
    request: { method: 'POST', path: '/conversations.setTopic', body: 'json' },
    response: { records: 'channel' },
  }),
  defineAction({
    entity: 'channel_purposes',
    action: 'create',
    description: "Set a channel's purpose (conversations.setPurpose).",
    params: purposeParams,
    record: channel,
    request: { method: 'POST', path: '/conversations.setPurpose', body: 'json' },
    response: { records: 'channel' },
  }),
];
