import { OPERATOR_TOKEN_TTL_SECONDS } from '../../core/hosted/token-claims.ts';
import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { pageLinks, pageOf, repeatedValues } from './public-pages.ts';

/**
 * The public cloud API, as Airbyte's official public API describes it (self-managed: `api_root` is
 * this server): served at `/v1/...` and, the same routes, at `/api/public/v1/...`. Its bearer token is
 * an operator token; its failures are problem details.
 */
export const PUBLIC_API_ROOTS = ['/v1', '/api/public/v1'] as const;
export const at = (path: string) => PUBLIC_API_ROOTS.map((root) => `${root}${path}`);

export const NOT_ALLOWED = 'Missing or invalid access token';
export const INVALID = 'Invalid data (problem details, with the issues)';

export const publicApiRoutes = [
  defineRoute({
    method: 'post',
    access: 'none',
    // Also at the root: the official SDK resolves its default token URL, `/applications/token`, against the server's root.
    paths: [...at('/applications/token'), '/applications/token'],
    summary: "Exchange the application's credentials (JSON or form-encoded, grant_type client_credentials) for an access token.",
    tags: ['public API'],
    auth: 'none',
    problems: true,
    formBody: true,
    body: SERVER_SCHEMAS['public-token-request.json'],
    returns: SERVER_SCHEMAS['public-token-response.json'],
    responses: { 200: 'An access token', 400: INVALID, 401: 'Invalid credentials', 429: 'Too many failed attempts (Retry-After)' },
    async handler({ body, hosted, ctx }) {
      const application = await hosted.applications.authenticate(body.client_id, body.client_secret, ctx.ip);
      const accessToken = await hosted.tokens.issueOperatorToken(application.client_id, application.organization_id);
      return { access_token: accessToken, token_type: 'Bearer' as const, expires_in: OPERATOR_TOKEN_TTL_SECONDS };
    },
  }),
  defineRoute({
    method: 'get',
    access: 'read',
    paths: at('/workspaces'),
    summary: "List the organization's workspaces, a page at a time (workspaceIds narrows the list).",
    tags: ['public API'],
    auth: ['operator'],
    problems: true,
    query: SERVER_SCHEMAS['public-list-query.json'],
    returns: SERVER_SCHEMAS['public-workspace-list.json'],
    responses: { 200: 'A page of workspaces', 400: INVALID, 401: NOT_ALLOWED },
    async handler({ hosted, claims, query, ctx, config }) {
      const page = pageOf(query);
      const ids = repeatedValues(ctx, 'workspaceIds').map((id) => id.toLowerCase());
      const found = await hosted.publicApi.workspaces.list(claims.organization_id, { ...page, ...(ids.length > 0 ? { ids } : {}) });
      return { data: found.items, ...pageLinks(ctx, config, page, found) };
    },
  }),
  defineRoute({
    method: 'post',
    access: 'admin',
    paths: at('/workspaces'),
    summary: 'Create a workspace in the organization.',
    tags: ['public API'],
    auth: ['operator'],
    problems: true,
    body: SERVER_SCHEMAS['public-workspace-create-request.json'],
    returns: SERVER_SCHEMAS['public-workspace.json'],
    responses: { 200: 'The workspace', 400: INVALID, 401: NOT_ALLOWED, 403: 'Another organization', 409: 'The name is taken in the organization' },
    handler: ({ hosted, claims, body }) => hosted.publicApi.workspaces.create(claims.organization_id, body),
  }),
  defineRoute({
    method: 'get',
    access: 'read',
    paths: at('/workspaces/:workspace_id'),
    summary: 'Get a workspace.',
    tags: ['public API'],
    auth: ['operator'],
    problems: true,
    returns: SERVER_SCHEMAS['public-workspace.json'],
    responses: { 200: 'The workspace', 401: NOT_ALLOWED, 404: 'No such workspace in the organization' },
    handler: ({ hosted, claims, params }) => hosted.publicApi.workspaces.get(claims.organization_id, params.workspace_id!),
  }),
  defineRoute({
    method: 'patch',
    access: 'admin',
    paths: at('/workspaces/:workspace_id'),
    summary: "Change a workspace's name, notification settings or region.",
    tags: ['public API'],
    auth: ['operator'],
    problems: true,
    body: SERVER_SCHEMAS['public-workspace-update-request.json'],
    returns: SERVER_SCHEMAS['public-workspace.json'],
    responses: {
      200: 'The workspace',
      400: INVALID,
      401: NOT_ALLOWED,
      404: 'No such workspace in the organization',
      409: 'The name is taken in the organization',
    },
    handler: ({ hosted, claims, params, body }) => hosted.publicApi.workspaces.update(claims.organization_id, params.workspace_id!, body),
  }),
  defineRoute({
    method: 'delete',
    access: 'admin',
    paths: at('/workspaces/:workspace_id'),
    summary: 'Delete a workspace and everything in it.',
    tags: ['public API'],
    auth: ['operator'],
    problems: true,
    status: 204,
    responses: { 204: 'Deleted', 401: NOT_ALLOWED, 404: 'No such workspace in the organization' },
    async handler({ hosted, claims, params, ctx }) {
      await hosted.publicApi.workspaces.delete(claims.organization_id, params.workspace_id!);
      ctx.status = 204;
      return undefined;
    },
  }),
];
