import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { publicActorRoutes } from './public-actor-routes.ts';
import { at, NOT_ALLOWED } from './public-api.ts';

/** Sources of the public cloud API (Airbyte's wire shapes), and which of a workspace's need connecting again (this server's own). */
export const publicSourceRoutes = [
  ...publicActorRoutes({
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
  }),
  defineRoute({
    method: 'get',
    access: 'read',
    paths: at('/workspaces/:workspace_id/sources_needing_reauthorization'),
    summary:
      "The workspace's sources whose OAuth grant is gone (the provider refused a refresh for good): reconnect each with initiateOAuth, then PATCH /sources/{id} with the secretId (not in Airbyte's API).",
    tags: ['public API'],
    auth: ['operator'],
    problems: true,
    returns: SERVER_SCHEMAS['public-source-list.json'],
    responses: { 200: 'The sources to reconnect, secrets masked', 401: NOT_ALLOWED, 404: 'No such workspace in the organization' },
    async handler({ hosted, claims, params }) {
      await hosted.publicApi.workspaces.get(claims.organization_id, params.workspace_id!);
      return { data: await hosted.publicApi.sources.needingReauthorization(claims.organization_id, params.workspace_id!) };
    },
  }),
];
