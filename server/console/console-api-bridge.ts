import { createHash } from 'node:crypto';
import type { Middleware, ParameterizedContext } from 'koa';
import { AccessDeniedError, AuthenticationError, NotFoundError } from '../../core/errors.ts';
import type { HostedRuntime } from '../../core/hosted/hosted-runtime.ts';
import { type ClaimsFor, OPERATOR_TOKEN_TTL_SECONDS } from '../../core/hosted/token-claims.ts';
import type { TokenService } from '../../core/hosted/token-service.ts';
import { csrfMatches, CSRF_COOKIE, sameOrigin, SESSION_COOKIE, setCsrfCookie, setSessionCookie } from './session-cookies.ts';

/** Where the console's calls go: `/console/api/v1/...` is `/v1/...`, `/console/api/api/v1/...` is `/api/v1/...`. */
export const CONSOLE_API_PREFIX = '/console/api';
/** `/console/api/workspace/<id>/api/v1/...`: a route that takes a workspace's scoped token (search, end users' connectors). */
const IN_WORKSPACE = /^\/workspace\/([0-9a-fA-F-]{36})(\/.*)$/;
const READS = new Set(['GET', 'HEAD']);

/**
 * The console's way into the API it shows: the operator token of the session cookie becomes the
 * request's bearer token and the request goes on to the ordinary routes, which authenticate, check
 * permissions and egress as for any client. State-changing requests need the CSRF header and the
 * server's own origin; a token past half its life is renewed in the cookie. Reads get an ETag, so the
 * console's polling costs a 304 when nothing changed.
 */
export function consoleApiBridge(hosted: Pick<HostedRuntime, 'tokens' | 'store' | 'permissions'>, ownOrigin: string): Middleware {
  const { tokens } = hosted;
  return async (ctx, next) => {
    if (ctx.path !== CONSOLE_API_PREFIX && !ctx.path.startsWith(`${CONSOLE_API_PREFIX}/`)) return next();
    const token = ctx.cookies.get(SESSION_COOKIE);
    if (!token) throw new AuthenticationError();
    const claims = await tokens.verify(token, 'operator');
    if (!READS.has(ctx.method) && !(csrfMatches(ctx) && sameOrigin(ctx, ownOrigin))) throw new AccessDeniedError();
    const path = ctx.path.slice(CONSOLE_API_PREFIX.length) || '/';
    const inWorkspace = IN_WORKSPACE.exec(path);
    ctx.path = inWorkspace ? inWorkspace[2]! : path;
    ctx.req.headers.authorization = `Bearer ${inWorkspace ? await workspaceToken(hosted, claims, inWorkspace[1]!.toLowerCase()) : token}`;
    ctx.set('Cache-Control', 'no-store');
    await next();
    if (ctx.status < 400) await renewSession(ctx, tokens, claims);
    if (READS.has(ctx.method) && ctx.status === 200) answerUnchanged(ctx);
  };
}

/**
 * A scoped token of one of the organization's workspaces, minted for the signed-in application as
 * POST /api/v1/embedded/scoped-token would: it does there no more than the application may.
 */
async function workspaceToken(
  hosted: Pick<HostedRuntime, 'tokens' | 'store' | 'permissions'>,
  claims: ClaimsFor<'operator'>,
  workspaceId: string,
): Promise<string> {
  const workspace = await hosted.store.getWorkspace(workspaceId);
  if (workspace?.organization_id !== claims.organization_id) throw new NotFoundError(`Workspace ${workspaceId} not found`, 'workspace_not_found');
  const caller = await hosted.permissions.callerOf(claims);
  return hosted.tokens.issueScopedToken(claims.organization_id, workspaceId, caller.userId);
}

async function renewSession(ctx: ParameterizedContext, tokens: TokenService, claims: Parameters<TokenService['renewOperatorToken']>[0]): Promise<void> {
  const renewed = await tokens.renewOperatorToken(claims);
  if (!renewed) return;
  setSessionCookie(ctx, renewed, OPERATOR_TOKEN_TTL_SECONDS);
  setCsrfCookie(ctx, OPERATOR_TOKEN_TTL_SECONDS, ctx.cookies.get(CSRF_COOKIE));
}

/** A weak ETag of the answer; the same one as the client's If-None-Match is a 304 with no body. */
function answerUnchanged(ctx: ParameterizedContext): void {
  const body = ctx.body;
  if (!Buffer.isBuffer(body) && typeof body !== 'string') return;
  const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
  ctx.set('ETag', etag);
  if (ctx.get('If-None-Match') === etag) {
    ctx.status = 304;
    ctx.body = null;
  }
}
