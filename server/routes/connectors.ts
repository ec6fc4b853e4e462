import { Readable } from 'node:stream';
import type { ParameterizedContext } from 'koa';
import { connectorSpecification } from '../../core/hosted/connector-specification.ts';
import { accessScopeOf, widgetScopeOf, workspaceScopeOf } from '../../core/hosted/token-claims.ts';
import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import type { DownloadResult } from '../../core/execution/types.ts';
import { contentDisposition } from '../../core/transport/content-disposition.ts';
import { defineRoute } from '../route.ts';

/** What the check of the credentials with the upstream, run before a connector is stored, may answer. */
const CREDENTIAL_CHECK_RESPONSES = {
  400: 'The upstream rejected the credentials (credentials_rejected); nothing was stored',
  429: 'The upstream rate-limited the credential check (Retry-After); nothing was stored',
  502: 'The upstream failed during the credential check; nothing was stored',
};

/** Embedded sources also take an OAuth consent's secret in place of credentials. */
const SECRET_REFUSED = `${CREDENTIAL_CHECK_RESPONSES[400]}; or invalid_secret_id: a secret_id unknown, used, expired, or of another workspace or connector type`;

/** A connector of this type for this external user already exists: the answer names it. */
const CONNECTOR_EXISTS = {
  description: 'The workspace has a connector of this type for this external user (connector_exists, with its connector_id)',
  schema: SERVER_SCHEMAS['connector-exists-response.json'],
};

export const connectorRoutes = [
  defineRoute({
    method: 'post',
    access: 'edit',
    // Served under both forms of the path the API has been described with (with and without /v1), plus the /api/v1 one.
    paths: ['/v1/integrations/connectors', '/integrations/connectors', '/api/v1/integrations/connectors'],
    summary: 'Create a hosted connector with third-party credentials, bound to an external user.',
    tags: ['connectors'],
    auth: ['scoped'],
    body: SERVER_SCHEMAS['connector-create-request.json'],
    status: 201,
    returns: SERVER_SCHEMAS['connector-record.json'],
    responses: {
      201: 'The connector record (never the credentials)',
      ...CREDENTIAL_CHECK_RESPONSES,
      401: 'Missing or invalid scoped token',
      409: CONNECTOR_EXISTS,
      422: 'Invalid body, credentials or replication_config (a type without a replication-config schema takes none)',
    },
    handler: ({ hosted, claims, body }) => hosted.connectors.create(workspaceScopeOf(claims), body),
  }),
  defineRoute({
    method: 'get',
    access: 'read',
    paths: ['/api/v1/integrations/connectors'],
    summary: "List the workspace's connectors, optionally by external_user_id and connector_type.",
    tags: ['connectors'],
    auth: ['scoped'],
    query: SERVER_SCHEMAS['connector-list-query.json'],
    returns: SERVER_SCHEMAS['connector-list.json'],
    responses: { 200: 'The connector records', 401: 'Missing or invalid scoped token' },
    async handler({ hosted, claims, query }) {
      const filter = {
        ...(query.external_user_id ? { external_user_id: query.external_user_id } : {}),
        ...(query.connector_type ? { connector_type: query.connector_type } : {}),
      };
      return { data: await hosted.connectors.list(accessScopeOf(claims), filter) };
    },
  }),
  defineRoute({
    method: 'get',
    access: 'read',
    paths: ['/api/v1/integrations/connectors/:connector_id'],
    summary: 'Get a connector record.',
    tags: ['connectors'],
    auth: ['operator', 'scoped'],
    returns: SERVER_SCHEMAS['connector-record.json'],
    responses: {
      200: 'The connector record',
      401: 'Missing or invalid token',
      403: 'Connector of another workspace or organization',
      404: 'No such connector',
    },
    handler: ({ hosted, claims, params }) => hosted.connectors.get(accessScopeOf(claims), params.connector_id!),
  }),
  defineRoute({
    method: 'delete',
    access: 'edit',
    paths: ['/api/v1/integrations/connectors/:connector_id'],
    summary: 'Delete a connector and its stored credentials.',
    tags: ['connectors'],
    auth: ['operator', 'scoped'],
    status: 204,
    responses: { 204: 'Deleted', 401: 'Missing or invalid token', 403: 'Connector of another workspace or organization', 404: 'No such connector' },
    async handler({ hosted, claims, params, ctx }) {
      await hosted.connectors.delete(accessScopeOf(claims), params.connector_id!);
      ctx.status = 204;
      return undefined;
    },
  }),
  defineRoute({
    method: 'post',
    access: 'run',
    paths: ['/api/v1/connectors/sources/:connector_id/execute'],
    summary: 'Run {entity, action, params} on a connector. Downloads answer with the raw bytes, streamed.',
    tags: ['connectors'],
    auth: ['scoped'],
    body: SERVER_SCHEMAS['execute-request.json'],
    returns: SERVER_SCHEMAS['execute-response.json'],
    responses: {
      200: { description: 'The execute envelope, or the bytes of a download', file: true },
      206: { description: 'Part of a download (range_header honoured)', file: true },
      400: 'The upstream refused the request as invalid',
      401: 'Missing or invalid scoped token',
      403: 'Connector of another workspace or organization, a widget token, or the upstream refused access',
      404: 'No such connector, or the upstream has no such item',
      416: 'range_header outside the file',
      422: 'Unknown entity or action, invalid params',
      409: 'The upstream reports a conflict (e.g. a name already taken), or a search before the entity was first replicated (context_store_not_ready, Retry-After)',
      429: 'Upstream rate limit (Retry-After)',
      502: 'Upstream failure',
      503: "The server cannot open the connector's stored credentials: their data key is not configured (credentials_unavailable)",
    },
    async handler({ hosted, claims, params, body, ctx }) {
      const result = await hosted.connectors.execute(workspaceScopeOf(claims), params.connector_id!, body);
      if (!('body' in result)) return result;
      sendDownload(ctx, result);
      return undefined;
    },
  }),
  defineRoute({
    method: 'get',
    access: 'read',
    paths: ['/api/v1/connectors/sources/:connector_id/replication'],
    summary: "The connector's replication into its context store: status, last run, each searchable entity.",
    tags: ['connectors'],
    auth: ['scoped'],
    returns: SERVER_SCHEMAS['replication-state.json'],
    responses: {
      200: 'The replication state',
      400: 'The connector type replicates nothing (replication_not_supported)',
      401: 'Missing or invalid scoped token',
      403: 'Connector of another workspace or organization, or a widget token',
      404: 'No such connector',
    },
    handler: ({ hosted, claims, params }) => hosted.replication.state(workspaceScopeOf(claims), params.connector_id!),
  }),
  defineRoute({
    method: 'post',
    access: 'run',
    paths: ['/api/v1/connectors/sources/:connector_id/replication'],
    summary: 'Refresh the context store now; a run already in progress is that refresh (no second run starts).',
    tags: ['connectors'],
    auth: ['scoped'],
    status: 202,
    returns: SERVER_SCHEMAS['replication-state.json'],
    responses: {
      202: 'The refresh is due now; the replication state',
      400: 'The connector type replicates nothing (replication_not_supported), or a body that is not JSON (the refresh takes none)',
      413: 'A body larger than the limit (the refresh takes none)',
      415: 'A body that is not application/json (the refresh takes none)',
      401: 'Missing or invalid scoped token',
      403: 'Connector of another workspace or organization, or a widget token',
      404: 'No such connector',
    },
    handler: ({ hosted, claims, params }) => hosted.replication.refresh(workspaceScopeOf(claims), params.connector_id!),
  }),
  defineRoute({
    method: 'get',
    access: 'read',
    paths: ['/api/v1/embedded/sources'],
    summary: "List the embedded sources (connectors made from source templates) of the token's workspace; a widget sees those it could have made.",
    tags: ['embedded'],
    auth: ['scoped', 'widget'],
    cors: true,
    returns: SERVER_SCHEMAS['connector-list.json'],
    responses: { 200: 'The sources (connector records)', 401: 'Missing or invalid scoped or widget token' },
    async handler({ hosted, claims }) {
      return { data: await hosted.connectors.listEmbeddedSources(workspaceScopeOf(claims), widgetScopeOf(claims)) };
    },
  }),
  defineRoute({
    method: 'post',
    access: 'edit',
    paths: ['/api/v1/embedded/sources'],
    summary:
      "Create a source from a source template with the end user's credentials, or the secret_id of their OAuth consent (POST /api/v1/embedded/oauth/initiate).",
    tags: ['embedded'],
    auth: ['scoped', 'widget'],
    cors: true,
    body: SERVER_SCHEMAS['embedded-source-create-request.json'],
    status: 201,
    returns: SERVER_SCHEMAS['connector-record.json'],
    responses: {
      201: 'The source (a connector record)',
      ...CREDENTIAL_CHECK_RESPONSES,
      400: SECRET_REFUSED,
      401: 'Missing or invalid scoped or widget token',
      404: 'No such source template (or not offered to this widget)',
      409: CONNECTOR_EXISTS,
      422: 'Invalid body',
    },
    handler: ({ hosted, claims, body }) => hosted.publicApi.oauth.embedded.createSource(workspaceScopeOf(claims), widgetScopeOf(claims), body),
  }),
  defineRoute({
    method: 'patch',
    access: 'edit',
    paths: ['/api/v1/embedded/sources/:source_id'],
    summary:
      "Replace an embedded source's name, credentials (or with an OAuth consent's secret_id) or replication settings (credentials are checked with the upstream first).",
    tags: ['embedded'],
    auth: ['scoped', 'widget'],
    cors: true,
    body: SERVER_SCHEMAS['embedded-source-update-request.json'],
    returns: SERVER_SCHEMAS['connector-record.json'],
    responses: {
      200: 'The updated source (a connector record)',
      ...CREDENTIAL_CHECK_RESPONSES,
      400: SECRET_REFUSED,
      401: 'Missing or invalid scoped or widget token',
      403: 'A source of another workspace or organization',
      404: 'No such source (or, to a widget, not one it could have created)',
      422: 'Invalid body, credentials or replication_config',
    },
    handler: ({ hosted, claims, params, body }) =>
      hosted.publicApi.oauth.embedded.updateSource(workspaceScopeOf(claims), widgetScopeOf(claims), params.source_id!, body),
  }),
  defineRoute({
    method: 'get',
    access: 'read',
    paths: ['/api/v1/embedded/connector-types'],
    summary: 'The connector types, each with the JSON Schemas of its credentials and replication settings (what a source form asks).',
    tags: ['embedded'],
    auth: ['scoped', 'widget'],
    cors: true,
    returns: SERVER_SCHEMAS['connector-specification-list.json'],
    responses: { 200: 'The connector types', 401: 'Missing or invalid scoped or widget token' },
    handler: ({ hosted }) => ({ data: hosted.runtime.connectorTypes().map((type) => connectorSpecification(hosted.runtime.plugin(type))) }),
  }),
];

/** Streams a download's bytes as they arrive; a failure mid-body cuts the connection so the client never takes a short file for whole. */
function sendDownload(ctx: ParameterizedContext, download: DownloadResult): void {
  ctx.status = download.status;
  ctx.type = download.content_type ?? 'application/octet-stream';
  if (download.content_length !== null) ctx.length = download.content_length;
  if (download.content_range) ctx.set('Content-Range', download.content_range);
  if (download.file_name) ctx.set('Content-Disposition', contentDisposition(download.file_name));
  // A file's bytes are never a page of this origin (the widget page shares it): not sniffed, and sandboxed if a browser renders them.
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', "sandbox; default-src 'none'");
  const stream = Readable.from(download.body, { objectMode: false });
  stream.on('error', () => ctx.res.destroy());
  ctx.body = stream;
  // The head leaves now, not with the first chunk: a cut before any byte is then a short body the
  // client can tell from its Content-Length, not a connection that looks as if the server were down.
  ctx.flushHeaders();
}
