import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { at, INVALID, NOT_ALLOWED } from './public-api.ts';
import { repeatedValues, uuidValues } from './public-pages.ts';

const NOT_FOUND = 'No such permission in the organization';
const NOT_ADMIN = "Not an administrator of the permission's workspace or organization, or a type beyond the caller's own";
const LAST_ADMIN = 'last_organization_admin: the organization would be left without an organization_admin';
const common = { tags: ['public API'], auth: ['operator'] as const, problems: true };

/** Users (the organization's applications) and their permissions: thin, the rules are in core/hosted/permissions/. */
export const publicPermissionRoutes = [
  defineRoute({
    ...common,
    method: 'get',
    access: 'read',
    paths: at('/users'),
    summary: "List the organization's users (its applications), narrowed to ids and emails; to its readers.",
    query: SERVER_SCHEMAS['public-user-list-query.json'],
    returns: SERVER_SCHEMAS['public-user-list.json'],
    responses: { 200: 'The users, oldest first', 400: INVALID, 401: NOT_ALLOWED, 403: 'Another organization, or not one of its readers' },
    async handler({ hosted, caller, query, ctx, config }) {
      const filter = { organizationId: query.organizationId, ids: uuidValues(ctx, 'ids'), emails: repeatedValues(ctx, 'emails') };
      return { data: await hosted.permissions.users.list(caller, filter, config.organizationEmail) };
    },
  }),
  defineRoute({
    ...common,
    method: 'get',
    access: 'member',
    paths: at('/permissions'),
    summary:
      "List permissions: a user's (default the caller's own), or with organizationId alone every user's; those of the scopes the caller administers, and its own.",
    query: SERVER_SCHEMAS['public-permission-list-query.json'],
    returns: SERVER_SCHEMAS['public-permission-list.json'],
    responses: { 200: 'The permissions, oldest first', 400: INVALID, 401: NOT_ALLOWED, 403: 'Another organization' },
    handler: async ({ hosted, caller, query }) => hosted.permissions.permissions.list(caller, query),
  }),
  defineRoute({
    ...common,
    method: 'post',
    access: 'admin',
    paths: at('/permissions'),
    summary: 'Give a user a permission in a workspace (workspace_*) or in the organization (organization_*): by an administrator of it, no more than its own.',
    body: SERVER_SCHEMAS['public-permission-create-request.json'],
    returns: SERVER_SCHEMAS['public-permission.json'],
    responses: {
      200: 'The permission',
      400: `${INVALID}; or permission_scope: a workspace type without its workspaceId, an organization type with one`,
      401: NOT_ALLOWED,
      403: NOT_ADMIN,
      404: 'No such user or workspace in the organization',
      409: 'permission_exists: the user has a permission of that scope',
    },
    handler: ({ hosted, caller, body }) => hosted.permissions.permissions.create(caller, body),
  }),
  defineRoute({
    ...common,
    method: 'get',
    access: 'member',
    paths: at('/permissions/:permission_id'),
    summary: "Get a permission: the caller's own, or one of a scope it administers.",
    returns: SERVER_SCHEMAS['public-permission.json'],
    responses: { 200: 'The permission', 401: NOT_ALLOWED, 403: 'Neither its own nor of a scope it administers', 404: NOT_FOUND },
    handler: ({ hosted, caller, params }) => hosted.permissions.permissions.get(caller, params.permission_id!),
  }),
  defineRoute({
    ...common,
    method: 'patch',
    access: 'admin',
    paths: at('/permissions/:permission_id'),
    summary: "Change a permission's type, within its scope (a workspace's stays a workspace's).",
    body: SERVER_SCHEMAS['public-permission-update-request.json'],
    returns: SERVER_SCHEMAS['public-permission.json'],
    responses: {
      200: 'The permission',
      400: `${INVALID}; or permission_scope: a type of another scope`,
      401: NOT_ALLOWED,
      403: NOT_ADMIN,
      404: NOT_FOUND,
      409: LAST_ADMIN,
    },
    handler: ({ hosted, caller, params, body }) => hosted.permissions.permissions.update(caller, params.permission_id!, body.permissionType),
  }),
  defineRoute({
    ...common,
    method: 'delete',
    access: 'admin',
    paths: at('/permissions/:permission_id'),
    summary: 'Delete a permission.',
    status: 204,
    responses: { 204: 'Deleted', 401: NOT_ALLOWED, 403: NOT_ADMIN, 404: NOT_FOUND, 409: LAST_ADMIN },
    async handler({ hosted, caller, params, ctx }) {
      await hosted.permissions.permissions.delete(caller, params.permission_id!);
      ctx.status = 204;
      return undefined;
    },
  }),
];
