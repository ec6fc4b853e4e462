import { defineAction } from '../../../core/sdk/index.ts';
import createParams from '../../../schemas/chat/params/messages.create.json' with { type: 'json' };
import updateParams from '../../../schemas/chat/params/messages.update.json' with { type: 'json' };
import postedMessage from '../../../schemas/chat/records/posted-message.json' with { type: 'json' };
import { withEnvelopeTs } from './posted-message-ts.ts';

export const messagesActions = [
  defineAction({
    entity: 'messages',
    action: 'create',
    description: 'Post a message, or a thread reply with thread_ts (chat.postMessage).',
    params: createParams,
    record: postedMessage,
    request: { method: 'POST', path: '/chat.postMessage', body: 'json' },
    response: { records: 'message' },
    hooks: { transformResponse: withEnvelopeTs },
  }),
  defineAction({
    entity: 'messages',
    action: 'update',
    description: 'Edit a message (chat.update).',
    params: updateParams,
    record: postedMessage,
    request: { method: 'POST', path: '/chat.update', body: 'json' },
    response: { records: 'message' },
    hooks: { transformResponse: withEnvelopeTs },
  }),
];
