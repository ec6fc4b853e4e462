import { widgetScopeOf, workspaceScopeOf } from '../../core/hosted/token-claims.ts';
import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { oauthCallbackUrl } from './public-oauth.ts';

/** The widget's OAuth: a consent for a source of a template, landing back on Plugboard's own done page. */
export const embeddedOAuthRoutes = [
  defineRoute({
    method: 'post',
    access: 'edit',
    paths: ['/api/v1/embedded/oauth/initiate'],
    summary:
      "The provider's consent page for a source of a template the caller may use (its connector type with an OAuth flow and an app registered): once the end user decides, the browser lands on <public URL>/widget/oauth/done with state and secret_id (for POST /api/v1/embedded/sources secret_id) or state and error.",
    tags: ['embedded', 'OAuth'],
    auth: ['scoped', 'widget'],
    cors: true,
    body: SERVER_SCHEMAS['embedded-oauth-initiate-request.json'],
    returns: SERVER_SCHEMAS['embedded-oauth-initiate-response.json'],
    responses: {
      200: 'The consent URL and its state',
      400: "oauth_app_not_registered: neither the workspace nor its organization registered an app for the template's connector type",
      401: 'Missing or invalid scoped or widget token',
      404: 'No such source template (or not offered to this widget)',
      422: 'Invalid body, or a template whose connector type has no OAuth flow',
    },
    handler: ({ hosted, claims, body, config }) =>
      hosted.publicApi.oauth.embedded.initiate(workspaceScopeOf(claims), widgetScopeOf(claims), body.source_template_id, {
        callbackUrl: oauthCallbackUrl(config),
        // Plugboard's own page, never one the caller names: the secret it carries serves this workspace's widget.
        doneUrl: `${config.publicUrl}/widget/oauth/done`,
      }),
  }),
];
