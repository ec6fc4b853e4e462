import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { at, INVALID, NOT_ALLOWED } from './public-api.ts';
import { pageLinks, uuidValues, workspacePage } from './public-pages.ts';

const NOT_FOUND = 'No such connection in the organization';
const common = { tags: ['public API'], auth: ['operator'] as const, problems: true };

/** Connections of the public cloud API (Airbyte's wire shapes): the rules are in core/hosted/cloud-api/. */
export const publicConnectionRoutes = [
  defineRoute({
    ...common,
    method: 'get',
    access: 'read',
    paths: at('/connections'),
    summary:
      "List the organization's connections, a page at a time (workspaceIds narrows the list, tagIds to those carrying any of the tags; includeDeleted lists deleted ones too).",
    query: SERVER_SCHEMAS['public-resource-list-query.json'],
    returns: SERVER_SCHEMAS['public-connection-list.json'],
    responses: { 200: 'A page of connections', 400: `${INVALID}: a tagIds value that is no UUID`, 401: NOT_ALLOWED },
    async handler({ hosted, claims, query, ctx, config }) {
      const page = workspacePage(ctx, query);
      const tagIds = uuidValues(ctx, 'tagIds');
      const found = await hosted.publicApi.connections.list(claims.organization_id, { ...page, ...(tagIds.length > 0 ? { tagIds } : {}) });
      return { data: found.items, ...pageLinks(ctx, config, page, found) };
    },
  }),
  defineRoute({
    ...common,
    method: 'post',
    access: 'edit',
    paths: at('/connections'),
    summary: "Create a connection from a source to a destination of its workspace: the source's streams it syncs, a table prefix, a schedule.",
    body: SERVER_SCHEMAS['public-connection-create-request.json'],
    returns: SERVER_SCHEMAS['public-connection.json'],
    responses: {
      200: 'The connection',
      400: `${INVALID}: an unknown stream, a sync mode the stream does not support, selected fields Airbyte's rules refuse, a mapper, an invalid cron expression, ends in two workspaces, a tag of another workspace`,
      401: NOT_ALLOWED,
      404: 'No such source or destination in the organization',
    },
    handler: ({ hosted, claims, body }) => hosted.publicApi.connections.create(claims.organization_id, body),
  }),
  defineRoute({
    ...common,
    method: 'get',
    access: 'read',
    paths: at('/connections/:connection_id'),
    summary: 'Get a connection, with its streams, their sync modes, cursor fields and primary keys.',
    returns: SERVER_SCHEMAS['public-connection.json'],
    responses: { 200: 'The connection', 401: NOT_ALLOWED, 404: NOT_FOUND },
    handler: ({ hosted, claims, params }) => hosted.publicApi.connections.get(claims.organization_id, params.connection_id!),
  }),
  defineRoute({
    ...common,
    method: 'patch',
    access: 'edit',
    paths: at('/connections/:connection_id'),
    summary: "Change a connection's fields given (configurations replace the streams selected, tags its tags).",
    body: SERVER_SCHEMAS['public-connection-patch-request.json'],
    returns: SERVER_SCHEMAS['public-connection.json'],
    responses: { 200: 'The connection', 400: INVALID, 401: NOT_ALLOWED, 404: NOT_FOUND },
    handler: ({ hosted, claims, params, body }) => hosted.publicApi.connections.patch(claims.organization_id, params.connection_id!, body),
  }),
  defineRoute({
    ...common,
    method: 'delete',
    access: 'edit',
    paths: at('/connections/:connection_id'),
    summary: 'Delete a connection (includeDeleted lists it afterwards, deprecated).',
    status: 204,
    responses: { 204: 'Deleted', 401: NOT_ALLOWED, 404: NOT_FOUND },
    async handler({ hosted, claims, params, ctx }) {
      await hosted.publicApi.connections.delete(claims.organization_id, params.connection_id!);
      ctx.status = 204;
      return undefined;
    },
  }),
];
