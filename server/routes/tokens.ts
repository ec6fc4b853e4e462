import { checkAllowedOrigin } from '../../core/hosted/allowed-origin.ts';
import {
  OPERATOR_TOKEN_TTL_SECONDS,
  WORKSPACE_SCOPE_CLAIM,
  type OperatorTokenClaims,
  type ScopedTokenClaims,
  type TagMode,
  type WidgetScope,
} from '../../core/hosted/token-claims.ts';
import { resolveWorkspace } from '../../core/hosted/workspaces.ts';
import applicationTokenRequest from '../../schemas/server/application-token-request.json' with { type: 'json' };
import scopedTokenRequest from '../../schemas/server/scoped-token-request.json' with { type: 'json' };
import widgetTokenRequest from '../../schemas/server/widget-token-request.json' with { type: 'json' };
import { defineRoute } from '../route.ts';

interface WidgetTokenBody {
  workspace_name: string;
  allowed_origin: string;
  region_id?: string;
  selected_source_template_tags?: string[];
  selected_source_template_tags_mode?: TagMode;
  selected_connection_template_tags?: string[];
  selected_connection_template_tags_mode?: TagMode;
}

export const tokenRoutes = [
  defineRoute<{ client_id: string; client_secret: string }>({
    method: 'post',
    paths: ['/api/v1/account/applications/token'],
    summary: 'Exchange application credentials for an operator token (15 minutes).',
    tags: ['tokens'],
    auth: 'none',
    body: applicationTokenRequest,
    responses: {
      200: 'Operator token',
      401: 'Invalid credentials',
      422: 'Invalid body',
      429: 'Too many failed attempts from this address or for this client id (Retry-After)',
    },
    async handler({ body, hosted, ctx }) {
      const application = await hosted.applications.authenticate(body.client_id, body.client_secret, ctx.ip);
      const accessToken = await hosted.tokens.issueOperatorToken(application.client_id, application.organization_id);
      return { access_token: accessToken, token_type: 'bearer', expires_in: OPERATOR_TOKEN_TTL_SECONDS, organization_id: application.organization_id };
    },
  }),
  defineRoute<{ workspace_name: string; region_id?: string }>({
    method: 'post',
    paths: ['/api/v1/embedded/scoped-token'],
    summary: 'Create a scoped token for a workspace, provisioning the workspace when it does not exist.',
    tags: ['tokens'],
    auth: ['operator'],
    body: scopedTokenRequest,
    responses: { 200: 'Scoped token', 401: 'Missing or invalid operator token', 422: 'Invalid body' },
    async handler({ body, hosted, claims }) {
      const { organization_id } = claims as OperatorTokenClaims;
      const workspace = await resolveWorkspace(hosted.store, hosted.cloud, organization_id, body.workspace_name, body.region_id);
      return { token: await hosted.tokens.issueScopedToken(organization_id, workspace.id) };
    },
  }),
  defineRoute({
    method: 'get',
    paths: ['/api/v1/embedded/scoped-token/info'],
    summary: "The scoped token's organization and workspace.",
    tags: ['tokens'],
    auth: ['scoped'],
    responses: { 200: 'Organization and workspace ids', 401: 'Missing or invalid scoped token' },
    handler({ claims }) {
      const scoped = claims as ScopedTokenClaims;
      return { organization_id: scoped.organization_id, 'workspace ID': scoped[WORKSPACE_SCOPE_CLAIM].workspaceId };
    },
  }),
  defineRoute<WidgetTokenBody>({
    method: 'post',
    paths: ['/api/v1/embedded/widget-token'],
    summary: 'Create a widget token: base64 JSON of a scoped token and the pre-configured widget URL.',
    tags: ['tokens'],
    auth: ['operator'],
    body: widgetTokenRequest,
    responses: { 200: 'Widget token', 401: 'Missing or invalid operator token', 422: 'Invalid body or allowed_origin' },
    async handler({ body, hosted, claims, config }) {
      const { organization_id } = claims as OperatorTokenClaims;
      const widget: WidgetScope = {
        allowed_origin: checkAllowedOrigin(body.allowed_origin),
        source_template_tags: body.selected_source_template_tags ?? [],
        source_template_tags_mode: body.selected_source_template_tags_mode ?? 'any',
        connection_template_tags: body.selected_connection_template_tags ?? [],
        connection_template_tags_mode: body.selected_connection_template_tags_mode ?? 'any',
      };
      const workspace = await resolveWorkspace(hosted.store, hosted.cloud, organization_id, body.workspace_name, body.region_id);
      const token = await hosted.issueWidgetToken(organization_id, workspace.id, widget);
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
