import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';

export const metaRoutes = [
  defineRoute({
    method: 'get',
    access: 'none',
    paths: ['/.well-known/jwks.json'],
    summary: 'Public keys that verify the tokens this service issues (ES256, by kid).',
    tags: ['tokens'],
    auth: 'none',
    returns: SERVER_SCHEMAS['json-web-key-set.json'],
    responses: { 200: 'JSON Web Key Set' },
    handler: ({ hosted }) => hosted.tokens.jwks(),
  }),
  defineRoute({
    method: 'get',
    access: 'none',
    paths: ['/healthz'],
    summary: 'Liveness.',
    tags: ['meta'],
    auth: 'none',
    returns: SERVER_SCHEMAS['health-response.json'],
    responses: { 200: 'The server is up' },
    handler: () => ({ status: 'ok' as const }),
  }),
];
