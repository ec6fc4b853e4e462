import { defineAction, defineSearchAction } from '../../../core/sdk/index.ts';
import listParams from '../../../schemas/chat/params/channels.list.json' with { type: 'json' };
import getParams from '../../../schemas/chat/params/channels.get.json' with { type: 'json' };
import createParams from '../../../schemas/chat/params/channels.create.json' with { type: 'json' };
import updateParams from '../../../schemas/chat/params/channels.update.json' with { type: 'json' };
import channel from '../../../schemas/chat/records/channel.json' with { type: 'json' };
import cursorMeta from '../../../schemas/chat/meta/cursor-meta.json' with { type: 'json' };
import channelDocument from '../../../schemas/chat/search/channels.json' with { type: 'json' };

export const channelsActions = [
  defineAction({
    entity: 'channels',
    action: 'list',
    description: 'List conversations (conversations.list).',
    params: listParams,
    record: channel,
    meta: cursorMeta,
    request: { method: 'GET', path: '/conversations.list' },
    response: { records: 'channels', meta: { next_cursor: 'response_metadata.next_cursor' } },
    paginated: true,
  }),
  defineAction({
    entity: 'channels',
    action: 'get',
    description: 'Get one conversation (conversations.info).',
    params: getParams,
    record: channel,
    request: { method: 'GET', path: '/conversations.info' },
    response: { records: 'channel' },
  }),
  defineAction({
    entity: 'channels',
    action: 'create',
    description: 'Create a public or private channel (conversations.create).',
    params: createParams,
    record: channel,
    request: { method: 'POST', path: '/conversations.create', body: 'json' },
    response: { records: 'channel' },
  }),
  defineAction({
    entity: 'channels',
    action: 'update',
    description: 'Rename a channel (conversations.rename).',
    params: updateParams,
    record: channel,
    request: { method: 'POST', path: '/conversations.rename', body: 'json' },
    response: { records: 'channel' },
  }),
  defineSearchAction('channels', {
    document: channelDocument,
    id: 'id',
    textFields: ['name', 'topic.value', 'purpose.value'],
    substringFields: ['name', 'name_normalized'],
  }),
];
