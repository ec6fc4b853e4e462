import { defineAction } from '../../../core/sdk/index.ts';
import getParams from '../../../schemas/chat/params/auth_test.get.json' with { type: 'json' };
import authIdentity from '../../../schemas/chat/records/auth-identity.json' with { type: 'json' };

export const authTestActions = [
  defineAction({
    entity: 'auth_test',
    action: 'get',
    description: "Check the credentials and tell which workspace and user they belong to (auth.test); the connector's credential check.",
    params: getParams,
    record: authIdentity,
    request: { method: 'GET', path: '/auth.test' },
    response: { records: '' },
  }),
];
