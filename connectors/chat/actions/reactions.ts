import { defineAction } from '../../../core/sdk/index.ts';
import createParams from '../../../schemas/chat/params/reactions.create.json' with { type: 'json' };
import reactionResult from '../../../schemas/chat/records/reaction-result.json' with { type: 'json' };

export const reactionsActions = [
  defineAction({
    entity: 'reactions',
    action: 'create',
    description: 'Add an emoji reaction to a message (reactions.add).',
    params: createParams,
    record: reactionResult,
    request: { method: 'POST', path: '/reactions.add', body: 'json' },
    response: { records: '' },
  }),
];
