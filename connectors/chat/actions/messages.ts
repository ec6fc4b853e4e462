import { defineAction } from '../../../core/sdk/index.ts';
import createParams from '../../../schemas/chat/params/messages.create.json' with { type: 'json' };
import updateParams from '../../../schemas/chat/params/messages.update.json' with { type: 'json' };
import postedMessage from '../../../schemas/chat/records/posted-message.json' with { type: 'json' };

export const messagesActions = [
  defineAction({
    entity: 'messages',
    action: 'create',
    description: 'Post a message, or a thread reply with thread_ts (chat.postMessage).',
    params: createParams,
    record: postedMessage,
    request: { method: 'POST', path: '/chat.postMessage', body: 'json' },
    response: { records: 'message', recordFallbacks: { ts: 'ts' } },
  }),
  defineAction({
    entity: 'messages',
    action: 'update',
    description: 'Edit a message (chat.update).',
    params: updateParams,
    record: postedMessage,
    request: { method: 'POST', path: '/chat.update', body: 'json' },
    // chat.update's `message` carries no ts: the edited message's ts is the top-level one.
    response: { records: 'message', recordFallbacks: { ts: 'ts' } },
  }),
];
