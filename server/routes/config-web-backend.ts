import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { configNotFound } from './config-errors.ts';
import { NOT_ALLOWED } from './public-api.ts';

const common = { tags: ['public API'], auth: ['operator'] as const };
const NOT_FOUND = { description: 'No such connection in the organization', schema: SERVER_SCHEMAS['config-not-found-response.json'] };

/** The config API's web backend connections: the rules are in core/hosted/cloud-api/web-backend-connections.ts and sync-catalog.ts. */
export const configWebBackendRoutes = [
  defineRoute({
    ...common,
    method: 'post',
    access: 'read',
    paths: ['/api/v1/web_backend/connections/get'],
    summary:
      "Get a connection with its sync catalog (every stream of its source, selected or not), its source and destination (secrets masked) and its latest job (the config API's web_backend/connections/get).",
    body: SERVER_SCHEMAS['config-web-backend-connection-request.json'],
    returns: SERVER_SCHEMAS['config-web-backend-connection.json'],
    responses: { 200: 'The connection', 401: NOT_ALLOWED, 404: NOT_FOUND },
    handler: ({ hosted, claims, body }) => configNotFound(body.connectionId, hosted.publicApi.webBackend.get(claims.organization_id, body)),
  }),
  defineRoute({
    ...common,
    method: 'post',
    access: 'edit',
    paths: ['/api/v1/web_backend/connections/update'],
    summary:
      "Change a connection: the fields given; a syncCatalog replaces the streams selected, their modes, and the selected fields and mappers it gives (those it leaves out kept), under the public API's rules (the config API's web_backend/connections/update).",
    body: SERVER_SCHEMAS['config-web-backend-connection-update.json'],
    returns: SERVER_SCHEMAS['config-web-backend-connection.json'],
    responses: {
      200: 'The connection, changed',
      401: NOT_ALLOWED,
      404: NOT_FOUND,
      422: 'An unknown stream, a mode the stream does not support, no stream selected, invalid selected fields or mappers, a basic schedule, an invalid cron expression or time zone',
    },
    handler: ({ hosted, claims, body }) => configNotFound(body.connectionId, hosted.publicApi.webBackend.update(claims.organization_id, body)),
  }),
];
