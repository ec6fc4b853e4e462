import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ParameterizedContext } from 'koa';

/** The httpOnly cookie holding the operator token: the page's script never sees it. */
export const SESSION_COOKIE = 'plugboard_console';
/** The CSRF token's cookie: readable by the page, which echoes it in CSRF_HEADER (double submit). */
export const CSRF_COOKIE = 'plugboard_console_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';

/** Both cookies: SameSite=Strict, only under /console, Secure when the request came over HTTPS. */
const cookieOptions = (ctx: ParameterizedContext, maxAgeSeconds: number, httpOnly: boolean) => ({
  path: '/console',
  sameSite: 'strict' as const,
  secure: ctx.secure,
  httpOnly,
  maxAge: maxAgeSeconds * 1000,
  overwrite: true,
});

export function setSessionCookie(ctx: ParameterizedContext, token: string, maxAgeSeconds: number): void {
  ctx.cookies.set(SESSION_COOKIE, token, cookieOptions(ctx, maxAgeSeconds, true));
}

/** A new CSRF token for a new session (its lifetime the session cookie's, renewed with it). */
export function setCsrfCookie(ctx: ParameterizedContext, maxAgeSeconds: number, value = randomBytes(24).toString('base64url')): void {
  ctx.cookies.set(CSRF_COOKIE, value, cookieOptions(ctx, maxAgeSeconds, false));
}

export function clearSessionCookies(ctx: ParameterizedContext): void {
  for (const name of [SESSION_COOKIE, CSRF_COOKIE]) ctx.cookies.set(name, '', { ...cookieOptions(ctx, 0, name === SESSION_COOKIE), maxAge: 0 });
}

/** Whether the request's CSRF header echoes its CSRF cookie (compared in constant time). */
export function csrfMatches(ctx: ParameterizedContext): boolean {
  const cookie = Buffer.from(ctx.cookies.get(CSRF_COOKIE) ?? '');
  const header = Buffer.from(ctx.get(CSRF_HEADER));
  return cookie.length > 0 && cookie.length === header.length && timingSafeEqual(cookie, header);
}

/**
 * A state-changing request must come from the server's own origin (its public URL's, or the address it
 * was reached at), when the browser says where it came from. Koa's ctx.origin can echo the Origin header: not used.
 */
export function sameOrigin(ctx: ParameterizedContext, ownOrigin: string): boolean {
  const origin = ctx.get('Origin');
  return origin === '' || origin === ownOrigin || origin === `${ctx.protocol}://${ctx.host}`;
}
