import { escapeHtml } from '../escape-html.ts';
import type { ParameterizedContext } from 'koa';
import { PlugboardError } from '../../core/errors.ts';
import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import type { ServerConfig } from '../config.ts';
import { defineRoute } from '../route.ts';
import { at, INVALID, NOT_ALLOWED } from './public-api.ts';

/** Plugboard's callback, the redirect_uri of every consent it asks for (both flows). */
export function oauthCallbackUrl(config: ServerConfig): string {
  return `${config.publicUrl}/v1/oauth/callback`;
}

/** OAuth's routes also carry their own tag: test/oauth-*.test.ts checks them against /openapi.json. */
const TAGS = ['public API', 'OAuth'];
const common = { tags: TAGS, auth: ['operator'] as const, problems: true };
const NOT_OAUTH = `${INVALID}: actorType other than source, or a name that is no source type with an OAuth flow`;

/** The owner routes of OAuth apps, for workspaces and organizations alike. */
function appRoutes(owner: 'workspace' | 'organization') {
  const param = `${owner}_id`;
  const base = `/${owner}s/:${param}/oauthCredentials`;
  const unknownOwner: Record<number, string> =
    owner === 'workspace' ? { 404: 'No such workspace in the organization' } : { 403: "Another organization than the token's" };
  const ref = (params: Record<string, string>) => ({ kind: owner, id: params[param]! });
  return [
    defineRoute({
      ...common,
      method: 'get',
      access: 'admin',
      paths: at(base),
      summary:
        owner === 'workspace'
          ? "The OAuth apps the workspace's consents may use: its own, then its organization's; each with its owner, source type and client id (never its secret)."
          : "The organization's OAuth apps: each with its source type and client id (never its secret).",
      returns: SERVER_SCHEMAS['public-oauth-app-list.json'],
      responses: { 200: 'The apps', 401: NOT_ALLOWED, ...unknownOwner },
      handler: ({ hosted, claims, params }) => hosted.publicApi.oauth.api.listApps(claims.organization_id, ref(params)),
    }),
    defineRoute({
      ...common,
      method: 'put',
      access: 'admin',
      paths: at(base),
      summary: `Register (or replace) the ${owner}'s OAuth app for a source type: its client id and secret (sealed, never answered) serve the consents asked for ${owner === 'workspace' ? 'the workspace' : "the organization's workspaces"}${owner === 'organization' ? ' without an app of their own' : ''}.`,
      body: SERVER_SCHEMAS['public-oauth-credentials-request.json'],
      responses: { 200: 'Registered (no body)', 400: NOT_OAUTH, 401: NOT_ALLOWED, ...unknownOwner },
      async handler({ hosted, claims, params, body, ctx }) {
        await hosted.publicApi.oauth.api.putApp(claims.organization_id, ref(params), body);
        ctx.status = 200;
        ctx.body = '';
        return undefined;
      },
    }),
    defineRoute({
      ...common,
      method: 'delete',
      access: 'admin',
      paths: at(`${base}/:actor_type/:name`),
      summary: `Delete the ${owner}'s OAuth app for a source type (consents then use the ${owner === 'workspace' ? "organization's, if any" : "workspaces' own, if any"}).`,
      status: 204,
      responses: {
        204: 'Deleted',
        400: 'actorType other than source or destination',
        401: NOT_ALLOWED,
        ...unknownOwner,
        404: owner === 'workspace' ? 'No such workspace in the organization, or no app registered under that name' : 'No app registered under that name',
      },
      async handler({ hosted, claims, params, ctx }) {
        await hosted.publicApi.oauth.api.deleteApp(claims.organization_id, ref(params), params.actor_type!, params.name!);
        ctx.status = 204;
        return undefined;
      },
    }),
  ];
}

/**
 * OAuth of the public cloud API: apps per workspace or organization, initiateOAuth, and the callback
 * every consent comes back to (no token: the provider's redirect of the end user's browser).
 */
export const publicOAuthRoutes = [
  ...appRoutes('workspace'),
  ...appRoutes('organization'),
  defineRoute({
    ...common,
    method: 'post',
    access: 'edit',
    paths: at('/sources/initiateOAuth'),
    summary:
      "The provider's consent page for a source of a type with an OAuth flow, with the workspace's (else its organization's) app: once the end user decides, Plugboard's callback sends the browser to redirectUrl with secret_id (for POST /v1/sources secretId) or error.",
    body: SERVER_SCHEMAS['public-initiate-oauth-request.json'],
    returns: SERVER_SCHEMAS['public-initiate-oauth-response.json'],
    responses: {
      200: 'The consent URL',
      400: `${NOT_OAUTH}; a redirectUrl that is not an absolute http(s) URL without user info; or oauth_app_not_registered`,
      401: NOT_ALLOWED,
      404: 'No such workspace in the organization',
    },
    handler: ({ hosted, claims, body, config }) => hosted.publicApi.oauth.api.initiate(claims.organization_id, body, oauthCallbackUrl(config)),
  }),
  defineRoute({
    method: 'get',
    access: 'none',
    paths: at('/oauth/callback'),
    summary:
      "Where providers send the end user back (no token): the state taken once, the code exchanged at the deployment's token URL, and the browser sent on to the flow's redirect URL with secret_id, or error (the provider's, oauth_exchange_failed, egress_refused).",
    tags: TAGS,
    auth: 'none',
    problems: true,
    query: SERVER_SCHEMAS['oauth-callback-query.json'],
    status: 302,
    responses: {
      302: "To the flow's redirect URL, with secret_id or error added to its query",
      400: {
        description: 'invalid_oauth_state: a state unknown, already used or expired; problem details, or an HTML page to a browser; no redirect',
        file: true,
      },
    },
    async handler({ hosted, query, ctx }) {
      // The query holds a code and a state: nothing of this answer is kept, nor passed on as a referrer.
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Referrer-Policy', 'no-referrer');
      let location: string;
      try {
        location = await hosted.publicApi.oauth.flows.complete(query);
      } catch (error) {
        // A browser (which asks for HTML first) gets a page; any other client problem details.
        if (!(error instanceof PlugboardError) || ctx.accepts('json', 'html') !== 'html') throw error;
        return errorPage(ctx, error);
      }
      ctx.status = 302;
      ctx.set('Location', location);
      ctx.body = '';
      return undefined;
    },
  }),
];

/** The callback's failure to a browser: a page saying what to do, with nothing from the request in it. */
function errorPage(ctx: ParameterizedContext, error: PlugboardError): undefined {
  const detail = typeof error.detail === 'string' ? error.detail : 'The sign-in could not be completed.';
  ctx.status = error.status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Connecting the account failed</title></head><body><h1>Connecting the account failed</h1><p role="alert">${escapeHtml(detail)}</p></body></html>`;
  return undefined;
}
