import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { configFailures, configNotFound } from './config-errors.ts';
import { NOT_ALLOWED } from './public-api.ts';

const common = { tags: ['public API'], auth: ['operator'] as const };
const NOT_FOUND = { description: 'No such connection in the organization', schema: SERVER_SCHEMAS['config-not-found-response.json'] };

/** The config API's connection state (`/api/v1/state/...`): the rules are in core/hosted/cloud-api/connection-states.ts. */
export const configStateRoutes = [
  defineRoute({
    ...common,
    method: 'post',
    access: 'read',
    paths: ['/api/v1/state/get'],
    summary: "Get a connection's saved sync state: each stream's (stateType stream), or not_set when it has none (the config API's state/get).",
    body: SERVER_SCHEMAS['config-connection-id-request.json'],
    returns: SERVER_SCHEMAS['config-connection-state.json'],
    responses: { 200: 'The state', 401: NOT_ALLOWED, 404: NOT_FOUND },
    handler: ({ hosted, claims, body }) => configNotFound(body.connectionId, hosted.publicApi.states.get(claims.organization_id, body.connectionId)),
  }),
  defineRoute({
    ...common,
    method: 'post',
    access: 'edit',
    paths: ['/api/v1/state/create_or_update_safe'],
    summary:
      "Replace a connection's sync state (stateType stream; not_set or no streams clears it), unless a job is pending or running (the config API's state/create_or_update_safe).",
    body: SERVER_SCHEMAS['config-connection-state-request.json'],
    returns: SERVER_SCHEMAS['config-connection-state.json'],
    responses: {
      200: 'The state, as saved',
      401: NOT_ALLOWED,
      404: NOT_FOUND,
      422: "A stream that is not the connection's or listed twice, a state not in its stream's form (cursors or token), a global or legacy state",
      423: { description: 'The connection has a job pending or running', schema: SERVER_SCHEMAS['config-known-exception-response.json'] },
    },
    handler: ({ hosted, claims, body }) => configFailures(body.connectionId, hosted.publicApi.states.replace(claims.organization_id, body)),
  }),
];
