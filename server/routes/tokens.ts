import { checkAllowedOrigin } from '../../core/hosted/allowed-origin.ts';
import { OPERATOR_TOKEN_TTL_SECONDS, workspaceScopeOf, type WidgetScope } from '../../core/hosted/token-claims.ts';
import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { resolveWorkspace } from '../../core/hosted/workspaces.ts';
import { defineRoute } from '../route.ts';

export const tokenRoutes = [
  defineRoute({
    method: 'post',
    access: 'none',
    paths: ['/api/v1/account/applications/token'],
    summary: 'Exchange application credentials for an operator token (15 minutes).',
    tags: ['tokens'],
    auth: 'none',
    body: SERVER_SCHEMAS['application-token-request.json'],
    returns: SERVER_SCHEMAS['operator-token-response.json'],
    responses: {
      200: 'Operator token',
      401: 'Invalid credentials',
      429: 'Too many failed attempts from this address or for this client id (Retry-After)',
    },
    async handler({ body, hosted, ctx }) {
      const application = await hosted.applications.authenticate(body.client_id, body.client_secret, ctx.ip);
      const accessToken = await hosted.tokens.issueOperatorToken(application.client_id, application.organization_id);
      return { access_token: accessToken, token_type: 'bearer' as const, expires_in: OPERATOR_TOKEN_TTL_SECONDS, organization_id: application.organization_id };
    },
  }),
  defineRoute({
    method: 'post',
    access: 'read',
    paths: ['/api/v1/embedded/scoped-token'],
    summary: 'Create a scoped token for a workspace, provisioning the workspace when it does not exist.',
    tags: ['tokens'],
    auth: ['operator'],
    body: SERVER_SCHEMAS['scoped-token-request.json'],
    returns: SERVER_SCHEMAS['scoped-token-response.json'],
    responses: { 200: 'Scoped token', 401: 'Missing or invalid operator token' },
    async handler({ body, hosted, claims, caller }) {
      const workspace = await resolveWorkspace(hosted.store, hosted.cloud, claims.organization_id, body.workspace_name, body.region_id);
      return { token: await hosted.tokens.issueScopedToken(claims.organization_id, workspace.id, caller.userId) };
    },
  }),
  defineRoute({
    method: 'get',
    access: 'read',
    paths: ['/api/v1/embedded/scoped-token/info'],
    summary: "The scoped token's organization and workspace.",
    tags: ['tokens'],
    auth: ['scoped'],
    returns: SERVER_SCHEMAS['scoped-token-info-response.json'],
    responses: { 200: 'Organization and workspace ids', 401: 'Missing or invalid scoped token' },
    handler({ claims }) {
      const scope = workspaceScopeOf(claims);
      return { organization_id: scope.organization_id, 'workspace ID': scope.workspace_id };
    },
  }),
  defineRoute({
    method: 'post',
    access: 'read',
    paths: ['/api/v1/embedded/widget-token'],
    summary: 'Create a widget token: base64 JSON of a scoped token and the pre-configured widget URL.',
    tags: ['tokens'],
    auth: ['operator'],
    body: SERVER_SCHEMAS['widget-token-request.json'],
    returns: SERVER_SCHEMAS['widget-token-response.json'],
    responses: { 200: 'Widget token', 401: 'Missing or invalid operator token', 422: 'Invalid body or allowed_origin' },
    async handler({ body, hosted, claims, caller, config }) {
      const widget: WidgetScope = {
        allowed_origin: checkAllowedOrigin(body.allowed_origin),
        source_template_tags: body.selected_source_template_tags ?? [],
        source_template_tags_mode: body.selected_source_template_tags_mode ?? 'any',
        connection_template_tags: body.selected_connection_template_tags ?? [],
        connection_template_tags_mode: body.selected_connection_template_tags_mode ?? 'any',
      };
      const workspace = await resolveWorkspace(hosted.store, hosted.cloud, claims.organization_id, body.workspace_name, body.region_id);
      const token = await hosted.issueWidgetToken(claims.organization_id, workspace.id, widget, caller.userId);
      const widgetUrl = new URL('/embedded-widget', config.publicUrl);
      widgetUrl.searchParams.set('workspaceId', workspace.id);
      widgetUrl.searchParams.set('allowedOrigin', widget.allowed_origin);
      widgetUrl.searchParams.set('selectedSourceTemplateTags', widget.source_template_tags.join(','));
      widgetUrl.searchParams.set('selectedSourceTemplateTagsMode', widget.source_template_tags_mode);
      widgetUrl.searchParams.set('selectedConnectionTemplateTags', widget.connection_template_tags.join(','));
      widgetUrl.searchParams.set('selectedConnectionTemplateTagsMode', widget.connection_template_tags_mode);
      return { token: Buffer.from(JSON.stringify({ token, widgetUrl: widgetUrl.href })).toString('base64') };
    },
  }),
];
