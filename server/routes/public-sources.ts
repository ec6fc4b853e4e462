import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { publicActorRoutes } from './public-actor-routes.ts';

/** Sources of the public cloud API (Airbyte's wire shapes). */
export const publicSourceRoutes = publicActorRoutes({
  noun: 'source',
  api: (hosted) => hosted.publicApi.sources,
  schemas: {
    one: SERVER_SCHEMAS['public-source.json'],
    list: SERVER_SCHEMAS['public-source-list.json'],
    create: SERVER_SCHEMAS['public-source-create-request.json'],
    patch: SERVER_SCHEMAS['public-source-patch-request.json'],
    put: SERVER_SCHEMAS['public-source-put-request.json'],
  },
  checked: 'its credentials with the upstream',
  refused: 'credentials the upstream refused',
});
