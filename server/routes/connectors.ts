import { Readable } from 'node:stream';
import type { AccessScope, CreateConnectorInput, EmbeddedSourceInput } from '../../core/hosted/hosted-connectors.ts';
import { widgetScopeOf, WORKSPACE_SCOPE_CLAIM, type OperatorTokenClaims } from '../../core/hosted/token-claims.ts';
import type { DownloadResult, ExecuteRequest } from '../../core/execution/types.ts';
import { contentDisposition } from '../../core/transport/content-disposition.ts';
import connectorCreateRequest from '../../schemas/server/connector-create-request.json' with { type: 'json' };
import embeddedSourceCreateRequest from '../../schemas/server/embedded-source-create-request.json' with { type: 'json' };
import executeRequest from '../../schemas/server/execute-request.json' with { type: 'json' };
import { defineRoute, type RouteInput } from '../route.ts';

/** The caller's reach: a scoped or widget token one workspace, an operator token its organization. */
function scopeOf(claims: RouteInput<unknown>['claims']): AccessScope {
  if (claims?.token_use === 'scoped' || claims?.token_use === 'widget')
    return { organization_id: claims.organization_id, workspace_id: claims[WORKSPACE_SCOPE_CLAIM].workspaceId };
  return { organization_id: (claims as OperatorTokenClaims).organization_id };
}

/** The reach of a route that takes only workspace tokens (scoped or widget). */
function workspaceScope(claims: RouteInput<unknown>['claims']): Required<AccessScope> {
  return scopeOf(claims) as Required<AccessScope>;
}

/** What the check of the credentials with the upstream, run before a connector is stored, may answer. */
const CREDENTIAL_CHECK_RESPONSES = {
  400: 'The upstream rejected the credentials (credentials_rejected); nothing was stored',
  429: 'The upstream rate-limited the credential check (Retry-After); nothing was stored',
  502: 'The upstream failed during the credential check; nothing was stored',
};

export const connectorRoutes = [
  defineRoute<CreateConnectorInput>({
    method: 'post',
    // SPEC 4.4 shows two forms of the path without reconciling them; both are served, plus the /api/v1 one.
    paths: ['/v1/integrations/connectors', '/integrations/connectors', '/api/v1/integrations/connectors'],
    summary: 'Create a hosted connector with third-party credentials, bound to an external user.',
    tags: ['connectors'],
    auth: ['scoped'],
    body: connectorCreateRequest,
    status: 201,
    responses: {
      201: 'The connector record (never the credentials)',
      ...CREDENTIAL_CHECK_RESPONSES,
      401: 'Missing or invalid scoped token',
      409: 'The workspace has a connector of this type for this external user (connector_exists, with its connector_id)',
      422: 'Invalid body, credentials or replication_config (a type without a replication-config schema takes none)',
    },
    handler: ({ hosted, claims, body }) => hosted.connectors.create(workspaceScope(claims), body),
  }),
  defineRoute({
    method: 'get',
    paths: ['/api/v1/integrations/connectors'],
    summary: "List the workspace's connectors, optionally by external_user_id and connector_type.",
    tags: ['connectors'],
    auth: ['scoped'],
    responses: { 200: '{data: connector records}', 401: 'Missing or invalid scoped token', 422: 'A NUL character or lone surrogate in a query value' },
    async handler({ hosted, claims, query }) {
      const filter = {
        ...(query.external_user_id ? { external_user_id: query.external_user_id } : {}),
        ...(query.connector_type ? { connector_type: query.connector_type } : {}),
      };
      return { data: await hosted.connectors.list(scopeOf(claims), filter) };
    },
  }),
  defineRoute({
    method: 'get',
    paths: ['/api/v1/integrations/connectors/:connector_id'],
    summary: 'Get a connector record.',
    tags: ['connectors'],
    auth: ['operator', 'scoped'],
    responses: {
      200: 'The connector record',
      401: 'Missing or invalid token',
      403: 'Connector of another workspace or organization',
      404: 'No such connector',
    },
    handler: ({ hosted, claims, params }) => hosted.connectors.get(scopeOf(claims), params.connector_id!),
  }),
  defineRoute({
    method: 'delete',
    paths: ['/api/v1/integrations/connectors/:connector_id'],
    summary: 'Delete a connector and its stored credentials.',
    tags: ['connectors'],
    auth: ['operator', 'scoped'],
    status: 204,
    responses: { 204: 'Deleted', 401: 'Missing or invalid token', 403: 'Connector of another workspace or organization', 404: 'No such connector' },
    async handler({ hosted, claims, params, ctx }) {
      await hosted.connectors.delete(scopeOf(claims), params.connector_id!);
      ctx.status = 204;
      return undefined;
    },
  }),
  defineRoute<ExecuteRequest>({
    method: 'post',
    paths: ['/api/v1/connectors/sources/:connector_id/execute'],
    summary: 'Run {entity, action, params} on a connector. Downloads answer with the raw bytes, streamed.',
    tags: ['connectors'],
    auth: ['scoped'],
    body: executeRequest,
    responses: {
      200: 'The execute envelope, or the bytes of a download',
      206: 'Part of a download (range_header honoured)',
      401: 'Missing or invalid scoped token',
      403: 'Connector of another workspace or organization, or a widget token',
      404: 'No such connector, or the upstream has no such item',
      422: 'Unknown entity or action, invalid params',
      429: 'Upstream rate limit (Retry-After)',
      502: 'Upstream failure',
    },
    async handler({ hosted, claims, params, body, ctx }) {
      const result = await hosted.connectors.execute(workspaceScope(claims), params.connector_id!, body);
      if (!('body' in result)) return result;
      sendDownload(ctx, result);
      return undefined;
    },
  }),
  defineRoute({
    method: 'get',
    paths: ['/api/v1/embedded/sources'],
    summary: "List the embedded sources (connectors made from source templates) of the token's workspace.",
    tags: ['embedded'],
    auth: ['scoped', 'widget'],
    cors: true,
    responses: { 200: '{data: connector records}', 401: 'Missing or invalid scoped or widget token' },
    async handler({ hosted, claims }) {
      return { data: await hosted.connectors.list(scopeOf(claims), { from_template: true }) };
    },
  }),
  defineRoute<EmbeddedSourceInput>({
    method: 'post',
    paths: ['/api/v1/embedded/sources'],
    summary: "Create a source from a source template with the end user's credentials.",
    tags: ['embedded'],
    auth: ['scoped', 'widget'],
    cors: true,
    body: embeddedSourceCreateRequest,
    status: 201,
    responses: {
      201: 'The source (a connector record)',
      ...CREDENTIAL_CHECK_RESPONSES,
      401: 'Missing or invalid scoped or widget token',
      404: 'No such source template (or not offered to this widget)',
      409: 'The workspace has a source of this type for this external user (connector_exists, with its connector_id)',
      422: 'Invalid body',
    },
    handler: ({ hosted, claims, body }) => hosted.connectors.createEmbeddedSource(workspaceScope(claims), widgetScopeOf(claims), body),
  }),
];

/** Streams a download's bytes as they arrive; a failure mid-body cuts the connection so the client never takes a short file for whole. */
function sendDownload(ctx: RouteInput<unknown>['ctx'], download: DownloadResult): void {
  ctx.status = download.status;
  ctx.type = download.content_type ?? 'application/octet-stream';
  if (download.content_length !== null) ctx.length = download.content_length;
  if (download.content_range) ctx.set('Content-Range', download.content_range);
  if (download.file_name) ctx.set('Content-Disposition', contentDisposition(download.file_name));
  const stream = Readable.from(download.body, { objectMode: false });
  stream.on('error', () => ctx.res.destroy());
  ctx.body = stream;
  // The head leaves now, not with the first chunk: a cut before any byte is then a short body the
  // client can tell from its Content-Length, not a connection that looks as if the server were down.
  ctx.flushHeaders();
}
