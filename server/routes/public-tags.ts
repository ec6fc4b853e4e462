import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { at, INVALID, NOT_ALLOWED } from './public-api.ts';
import { repeatedValues } from './public-pages.ts';

const NOT_FOUND = 'No such tag in the organization';
const TAKEN = 'Another tag of the workspace has the name';
const common = { tags: ['public API'], auth: ['operator'] as const, problems: true };

/** Tags of the public cloud API (Airbyte's wire shapes), which connections carry: the rules are in core/hosted/cloud-api/public-tags.ts. */
export const publicTagRoutes = [
  defineRoute({
    ...common,
    method: 'get',
    access: 'read',
    paths: at('/tags'),
    summary: "List the tags of the organization's workspaces, or of those workspaceIds names (unpaged, as the official operation is).",
    query: SERVER_SCHEMAS['public-tag-list-query.json'],
    returns: SERVER_SCHEMAS['public-tag-list.json'],
    responses: { 200: 'The tags, oldest first', 400: INVALID, 401: NOT_ALLOWED, 404: 'No such workspace in the organization' },
    async handler({ hosted, claims, ctx }) {
      return { data: await hosted.publicApi.tags.list(claims.organization_id, repeatedValues(ctx, 'workspaceIds')) };
    },
  }),
  defineRoute({
    ...common,
    method: 'post',
    access: 'edit',
    paths: at('/tags'),
    summary: 'Create a tag in a workspace: a name unique there (at most 30 characters) and a hex color (RRGGBB); at most 100 a workspace.',
    body: SERVER_SCHEMAS['public-tag-create-request.json'],
    returns: SERVER_SCHEMAS['public-tag.json'],
    responses: {
      200: 'The tag',
      400: `${INVALID}: a name longer than 30 characters, a color not RRGGBB; or tag_limit_reached: the workspace has 100 tags`,
      401: NOT_ALLOWED,
      404: 'No such workspace in the organization',
      409: TAKEN,
    },
    handler: ({ hosted, claims, body }) => hosted.publicApi.tags.create(claims.organization_id, body),
  }),
  defineRoute({
    ...common,
    method: 'get',
    access: 'read',
    paths: at('/tags/:tag_id'),
    summary: 'Get a tag.',
    returns: SERVER_SCHEMAS['public-tag.json'],
    responses: { 200: 'The tag', 401: NOT_ALLOWED, 404: NOT_FOUND },
    handler: ({ hosted, claims, params }) => hosted.publicApi.tags.get(claims.organization_id, params.tag_id!),
  }),
  defineRoute({
    ...common,
    method: 'patch',
    access: 'edit',
    paths: at('/tags/:tag_id'),
    summary: "Change a tag's name and color (both given); the connections carrying it are answered with them.",
    body: SERVER_SCHEMAS['public-tag-patch-request.json'],
    returns: SERVER_SCHEMAS['public-tag.json'],
    responses: { 200: 'The tag', 400: INVALID, 401: NOT_ALLOWED, 404: NOT_FOUND, 409: TAKEN },
    handler: ({ hosted, claims, params, body }) => hosted.publicApi.tags.update(claims.organization_id, params.tag_id!, body),
  }),
  defineRoute({
    ...common,
    method: 'delete',
    access: 'edit',
    paths: at('/tags/:tag_id'),
    summary: 'Delete a tag: the connections carrying it no longer do.',
    status: 204,
    responses: { 204: 'Deleted', 401: NOT_ALLOWED, 404: NOT_FOUND },
    async handler({ hosted, claims, params, ctx }) {
      await hosted.publicApi.tags.delete(claims.organization_id, params.tag_id!);
      ctx.status = 204;
      return undefined;
    },
  }),
];
