import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { publicActorRoutes } from './public-actor-routes.ts';

/** Destinations of the public cloud API (Airbyte's wire shapes). */
export const publicDestinationRoutes = publicActorRoutes({
  noun: 'destination',
  api: (hosted) => hosted.publicApi.destinations,
  schemas: {
    one: SERVER_SCHEMAS['public-destination.json'],
    list: SERVER_SCHEMAS['public-destination-list.json'],
    create: SERVER_SCHEMAS['public-destination-create-request.json'],
    patch: SERVER_SCHEMAS['public-destination-patch-request.json'],
    put: SERVER_SCHEMAS['public-destination-put-request.json'],
  },
  checked: 'by connecting and writing a table',
  refused: 'a destination its check could not use',
});
