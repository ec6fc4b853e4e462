import type { PublicActors } from '../../core/hosted/cloud-api/public-actors.ts';
import type { ActorKind } from '../../core/hosted/cloud-api/actor-kind.ts';
import type { HostedRuntime } from '../../core/hosted/hosted-runtime.ts';
import type { TypedSchema } from '../../core/hosted/typed-schema.ts';
import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { configFailures } from './config-errors.ts';
import { NOT_ALLOWED } from './public-api.ts';

/**
 * The config API's connection checks (`/api/v1/sources/check_connection`, `.../destinations/...`),
 * which clients of the public API call beside it (at its root less `/public`): a 200 whose `status`
 * is the verdict; an unknown id is the config API's 404.
 */
function checkRoute<TBody>(
  noun: 'source' | 'destination',
  body: TypedSchema<TBody>,
  idOf: (body: TBody) => string,
  api: (hosted: HostedRuntime) => PublicActors<ActorKind, unknown>,
) {
  return defineRoute({
    method: 'post',
    access: 'run',
    paths: [`/api/v1/${noun}s/check_connection`],
    summary: `Check that a ${noun} reaches its system with its stored configuration (the config API's check_connection).`,
    tags: ['public API'],
    auth: ['operator'],
    body,
    returns: SERVER_SCHEMAS['config-check-connection-read.json'],
    responses: {
      200: 'The verdict: status succeeded or failed, and why',
      400: {
        description:
          'secret_required: the stored secrets were entered for another endpoint than the one they would now go to (a declarative source whose definition moved); not tried',
        schema: SERVER_SCHEMAS['config-known-exception-response.json'],
      },
      401: NOT_ALLOWED,
      404: { description: `No such ${noun} in the organization`, schema: SERVER_SCHEMAS['config-not-found-response.json'] },
    },
    async handler({ hosted, claims, body }) {
      const id = idOf(body);
      return configFailures(id, api(hosted).checkConnection(claims.organization_id, id));
    },
  });
}

export const configConnectionCheckRoutes = [
  checkRoute(
    'source',
    SERVER_SCHEMAS['config-source-check-request.json'],
    (body) => body.sourceId,
    (hosted) => hosted.publicApi.sources,
  ),
  checkRoute(
    'destination',
    SERVER_SCHEMAS['config-destination-check-request.json'],
    (body) => body.destinationId,
    (hosted) => hosted.publicApi.destinations,
  ),
];
