import { defineAction, defineSearchAction } from '../../../core/sdk/index.ts';
import listParams from '../../../schemas/chat/params/threads.list.json' with { type: 'json' };
import threadMessage from '../../../schemas/chat/records/thread-message.json' with { type: 'json' };
import historyMeta from '../../../schemas/chat/meta/history-meta.json' with { type: 'json' };
import threadDocument from '../../../schemas/chat/search/threads.json' with { type: 'json' };

export const threadsActions = [
  defineAction({
    entity: 'threads',
    action: 'list',
    description: 'List a thread: its parent message, then the replies (conversations.replies).',
    params: listParams,
    record: threadMessage,
    meta: historyMeta,
    request: { method: 'GET', path: '/conversations.replies' },
    response: { records: 'messages', meta: { next_cursor: 'response_metadata.next_cursor', has_more: 'has_more' } },
    paginated: true,
  }),
  defineSearchAction('threads', {
    document: threadDocument,
    id: ['channel_id', 'ts'],
    textFields: ['text'],
    indexedFields: ['channel_id', 'user'],
  }),
];
