import { defineAction } from '../../../core/sdk/index.ts';
import listParams from '../../../schemas/file-storage/params/changes.list.json' with { type: 'json' };
import startParams from '../../../schemas/file-storage/params/changes_start_page_token.get.json' with { type: 'json' };
import aboutParams from '../../../schemas/file-storage/params/about.get.json' with { type: 'json' };
import change from '../../../schemas/file-storage/records/change.json' with { type: 'json' };
import startPageToken from '../../../schemas/file-storage/records/start-page-token.json' with { type: 'json' };
import about from '../../../schemas/file-storage/records/about.json' with { type: 'json' };
import changeListMeta from '../../../schemas/file-storage/meta/change-list-meta.json' with { type: 'json' };
import { everyField } from './fields.ts';

export const changesActions = [
  defineAction({
    entity: 'changes',
    action: 'list',
    description: 'List changes since a page token (changes.list); the last page carries newStartPageToken.',
    params: listParams,
    record: change,
    meta: changeListMeta,
    // changes.list's params have no `fields`: every field is asked for, nextPageToken and newStartPageToken with them.
    request: { method: 'GET', path: '/drive/v3/changes', ...everyField },
    response: { records: 'changes', meta: { nextPageToken: 'nextPageToken', newStartPageToken: 'newStartPageToken' } },
    paginated: true,
  }),
  defineAction({
    entity: 'changes_start_page_token',
    action: 'get',
    description: 'Get the page token where the changes feed starts now (changes.getStartPageToken).',
    params: startParams,
    record: startPageToken,
    request: { method: 'GET', path: '/drive/v3/changes/startPageToken' },
    response: { records: '' },
  }),
  defineAction({
    entity: 'about',
    action: 'get',
    description: 'Get the user, their Drive and its capabilities (about.get).',
    params: aboutParams,
    record: about,
    // Drive requires `fields` on about.get.
    request: { method: 'GET', path: '/drive/v3/about', defaults: { fields: '*' } },
    response: { records: '' },
  }),
];
