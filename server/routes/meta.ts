import { defineRoute } from '../route.ts';

export const metaRoutes = [
  defineRoute({
    method: 'get',
    paths: ['/.well-known/jwks.json'],
    summary: 'Public keys that verify the tokens this service issues (ES256, by kid).',
    tags: ['tokens'],
    auth: 'none',
    responses: { 200: 'JSON Web Key Set' },
    handler: ({ hosted }) => hosted.tokens.jwks(),
  }),
  defineRoute({
    method: 'get',
    paths: ['/healthz'],
    summary: 'Liveness.',
    tags: ['meta'],
    auth: 'none',
    responses: { 200: '{status: ok}' },
    handler: () => ({ status: 'ok' }),
  }),
];
