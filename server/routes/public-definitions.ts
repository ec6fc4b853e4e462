import type { PublicDefinitions } from '../../core/hosted/cloud-api/public-definitions.ts';
import type { HostedRuntime } from '../../core/hosted/hosted-runtime.ts';
import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { at, INVALID, NOT_ALLOWED } from './public-api.ts';

const NOT_FOUND = 'No such workspace in the organization, or no such definition in it';
const READ_ONLY = `definition_read_only: a type this server runs, or a declarative definition (changed through its own routes)`;
const common = { tags: ['public API'], auth: ['operator'] as const, problems: true };

/**
 * The routes of a workspace's source or destination definitions (list, create, get, update, delete):
 * thin, the rules are in core/hosted/cloud-api/public-definitions.ts.
 */
function definitionRoutes(noun: 'source' | 'destination', api: (hosted: HostedRuntime) => PublicDefinitions) {
  const collection = at(`/workspaces/:workspace_id/definitions/${noun}s`);
  const one = at(`/workspaces/:workspace_id/definitions/${noun}s/:definition_id`);
  return [
    defineRoute({
      ...common,
      method: 'get',
      access: 'read',
      paths: collection,
      summary: `List the workspace's ${noun} definitions: the types this server runs${noun === 'source' ? ', its declarative definitions' : ''} and its custom ones (all of them: no paging).`,
      returns: SERVER_SCHEMAS['public-definition-list.json'],
      responses: { 200: 'The definitions', 401: NOT_ALLOWED, 404: 'No such workspace in the organization' },
      handler: async ({ hosted, claims, params }) => ({ data: await api(hosted).list(claims.organization_id, params.workspace_id!) }),
    }),
    defineRoute({
      ...common,
      method: 'post',
      access: 'edit',
      paths: collection,
      summary: `Create a custom ${noun} definition naming a Docker image: kept and listed, though this server runs no containers (a ${noun} of it is refused).`,
      body: SERVER_SCHEMAS['public-definition-create-request.json'],
      returns: SERVER_SCHEMAS['public-definition.json'],
      responses: { 200: 'The definition', 400: INVALID, 401: NOT_ALLOWED, 404: 'No such workspace in the organization' },
      handler: ({ hosted, claims, params, body }) => api(hosted).create(claims.organization_id, params.workspace_id!, body),
    }),
    defineRoute({
      ...common,
      method: 'get',
      access: 'read',
      paths: one,
      summary: `Get a ${noun} definition of the workspace.`,
      returns: SERVER_SCHEMAS['public-definition.json'],
      responses: { 200: 'The definition', 401: NOT_ALLOWED, 404: NOT_FOUND },
      handler: ({ hosted, claims, params }) => api(hosted).get(claims.organization_id, params.workspace_id!, params.definition_id!),
    }),
    defineRoute({
      ...common,
      method: 'put',
      access: 'edit',
      paths: one,
      summary: `Change a custom ${noun} definition's name and image tag.`,
      body: SERVER_SCHEMAS['public-definition-update-request.json'],
      returns: SERVER_SCHEMAS['public-definition.json'],
      responses: { 200: 'The definition', 400: `${INVALID}; or ${READ_ONLY}`, 401: NOT_ALLOWED, 404: NOT_FOUND },
      handler: ({ hosted, claims, params, body }) => api(hosted).update(claims.organization_id, params.workspace_id!, params.definition_id!, body),
    }),
    defineRoute({
      ...common,
      method: 'delete',
      access: 'edit',
      paths: one,
      summary: `Delete a custom ${noun} definition; answers it as it was.`,
      returns: SERVER_SCHEMAS['public-definition.json'],
      responses: { 200: 'The definition deleted', 400: READ_ONLY, 401: NOT_ALLOWED, 404: NOT_FOUND },
      handler: ({ hosted, claims, params }) => api(hosted).delete(claims.organization_id, params.workspace_id!, params.definition_id!),
    }),
  ];
}

export const publicDefinitionRoutes = [
  ...definitionRoutes('source', (hosted) => hosted.publicApi.sourceDefinitions),
  ...definitionRoutes('destination', (hosted) => hosted.publicApi.destinationDefinitions),
];
