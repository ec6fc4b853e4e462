import type { Router } from '@koa/router';
import type { WidgetAssets } from '../widget-assets.ts';

/** Plugboard's own page the embedded OAuth flow ends on: the path the callback redirects to (`<public URL>/widget/oauth/done`). */
export const OAUTH_DONE_PATH = '/widget/oauth/done';

/**
 * What the done page may do: run its own script and style, nothing inline, no request of its own.
 * No Cross-Origin-Opener-Policy: the page must keep its opener (the widget page) to hand it the outcome.
 */
const DONE_PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * `GET /widget/oauth/done?state=&secret_id=` (or `&error=`): served to anyone, like the widget's
 * other pages; its script posts the state and the secret id (or the error) to the widget page that
 * opened the consent's window, addressed to this origin only, then closes the window. Nothing of the
 * query is written into the page: the script reads it, then drops it from the address bar.
 */
export function registerWidgetOAuthPages(router: Router, assets: WidgetAssets): void {
  router.get(OAUTH_DONE_PATH, (ctx) => {
    ctx.status = 200;
    ctx.set('Content-Security-Policy', DONE_PAGE_POLICY);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = assets.oauthDonePage;
  });
}
