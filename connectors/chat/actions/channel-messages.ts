import { defineAction, defineSearchAction } from '../../../core/sdk/index.ts';
import listParams from '../../../schemas/chat/params/channel_messages.list.json' with { type: 'json' };
import message from '../../../schemas/chat/records/message.json' with { type: 'json' };
import historyMeta from '../../../schemas/chat/meta/history-meta.json' with { type: 'json' };
import messageDocument from '../../../schemas/chat/search/channel_messages.json' with { type: 'json' };

export const channelMessagesActions = [
  defineAction({
    entity: 'channel_messages',
    action: 'list',
    description: "List a channel's messages, newest first (conversations.history).",
    params: listParams,
    record: message,
    meta: historyMeta,
    request: { method: 'GET', path: '/conversations.history' },
    response: { records: 'messages', meta: { next_cursor: 'response_metadata.next_cursor', has_more: 'has_more' } },
    paginated: true,
  }),
  // The upstream record has no channel id: replication adds it, and it makes the id unique.
  defineSearchAction('channel_messages', {
    document: messageDocument,
    id: ['channel_id', 'ts'],
    textFields: ['text'],
    indexedFields: ['channel_id', 'user'],
  }),
];
