import type { Router } from '@koa/router';
import type { ParameterizedContext } from 'koa';
import { AccessDeniedError, AuthenticationError, ValidationError } from '../../core/errors.ts';
import type { HostedRuntime } from '../../core/hosted/hosted-runtime.ts';
import { OPERATOR_TOKEN_TTL_SECONDS } from '../../core/hosted/token-claims.ts';
import { compileTyped } from '../../core/hosted/typed-schema.ts';
import { type ApplicationTokenRequest, SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { createAjv } from '../../core/schema/ajv.ts';
import { toValidationIssues } from '../../core/schema/validation-issues.ts';
import { pagePolicy } from '../page-policy.ts';
import { CONSOLE_ASSETS_PATH, consoleAssets } from './console-assets.ts';
import { clearSessionCookies, csrfMatches, sameOrigin, SESSION_COOKIE, setCsrfCookie, setSessionCookie } from './session-cookies.ts';

/** The console page loads its own files and calls its own origin; nothing inline, no frames, no forms posted elsewhere. */
export const CONSOLE_POLICY = pagePolicy("form-action 'self'", "frame-ancestors 'none'");

/**
 * `/console`: the page and its files; `/console/session`: sign in (application credentials for a
 * session cookie, through the application-token check and its rate limits), who is signed in, sign out.
 */
export function registerConsoleRoutes(router: Router, hosted: Pick<HostedRuntime, 'applications' | 'tokens'>, ownOrigin: string): void {
  const assets = consoleAssets();

  router.get('/console', (ctx) => {
    securityHeaders(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = assets.page;
  });

  router.get(`${CONSOLE_ASSETS_PATH}:file`, (ctx) => {
    const asset = assets.files.get(ctx.params.file ?? '');
    if (!asset) return;
    securityHeaders(ctx);
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.type = asset.type;
    ctx.body = asset.body;
  });

  router.post('/console/session', async (ctx) => {
    // A sign-in posted from another site would sign the victim in as the attacker: same origin only.
    if (!sameOrigin(ctx, ownOrigin)) throw new AccessDeniedError();
    const { client_id: clientId, client_secret: clientSecret } = credentialsOf(ctx.request.body);
    const application = await hosted.applications.authenticate(clientId, clientSecret, ctx.ip);
    const token = await hosted.tokens.issueOperatorToken(application.client_id, application.organization_id);
    setSessionCookie(ctx, token, OPERATOR_TOKEN_TTL_SECONDS);
    setCsrfCookie(ctx, OPERATOR_TOKEN_TTL_SECONDS);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { client_id: application.client_id, organization_id: application.organization_id };
  });

  router.get('/console/session', async (ctx) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    if (!token) throw new AuthenticationError();
    const claims = await hosted.tokens.verify(token, 'operator');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { client_id: claims.sub, organization_id: claims.organization_id, expires_at: new Date(claims.exp * 1000).toISOString() };
  });

  router.delete('/console/session', (ctx) => {
    if (!(csrfMatches(ctx) && sameOrigin(ctx, ownOrigin))) throw new AccessDeniedError();
    clearSessionCookies(ctx);
    ctx.status = 204;
  });
}

function securityHeaders(ctx: ParameterizedContext): void {
  ctx.set('Content-Security-Policy', CONSOLE_POLICY);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Frame-Options', 'DENY');
}

const validateCredentials = compileTyped(createAjv(), SERVER_SCHEMAS['application-token-request.json']);

/** The sign-in body, checked against the application-token route's own schema. */
function credentialsOf(body: unknown): ApplicationTokenRequest {
  if (!validateCredentials(body)) throw new ValidationError(toValidationIssues(validateCredentials.errors ?? [], ['body']));
  return body;
}
