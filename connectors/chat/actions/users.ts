import { defineAction, defineSearchAction } from '../../../core/sdk/index.ts';
import listParams from '../../../schemas/chat/params/users.list.json' with { type: 'json' };
import getParams from '../../../schemas/chat/params/users.get.json' with { type: 'json' };
import user from '../../../schemas/chat/records/user.json' with { type: 'json' };
import cursorMeta from '../../../schemas/chat/meta/cursor-meta.json' with { type: 'json' };
import userDocument from '../../../schemas/chat/search/users.json' with { type: 'json' };

export const usersActions = [
  defineAction({
    entity: 'users',
    action: 'list',
    description: 'List the workspace members (users.list).',
    params: listParams,
    record: user,
    meta: cursorMeta,
    request: { method: 'GET', path: '/users.list' },
    response: { records: 'members', meta: { next_cursor: 'response_metadata.next_cursor' } },
    paginated: true,
  }),
  defineAction({
    entity: 'users',
    action: 'get',
    description: 'Get one member (users.info).',
    params: getParams,
    record: user,
    request: { method: 'GET', path: '/users.info' },
    response: { records: 'user' },
  }),
  defineSearchAction('users', {
    document: userDocument,
    id: 'id',
    textFields: ['name', 'real_name', 'profile.display_name', 'profile.real_name', 'profile.title'],
    substringFields: ['name', 'profile.email'],
    // What people filter and sort users by; each index slows replication.
    indexedFields: ['name', 'tz', 'updated', 'profile.email'],
  }),
];
