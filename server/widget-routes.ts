import type { Router } from '@koa/router';
import type { ParameterizedContext } from 'koa';
import { checkAllowedOrigin } from '../core/hosted/allowed-origin.ts';
import type { HostedRuntime } from '../core/hosted/hosted-runtime.ts';
import { pagePolicy } from './page-policy.ts';
import { WIDGET_ASSETS_PATH, widgetAssets } from './widget-assets.ts';
import { registerWidgetIcons } from './routes/widget-icons.ts';
import { registerWidgetOAuthPages } from './routes/widget-oauth-pages.ts';

/** What the widget page may load and do: its own files and API, nothing inline, nothing elsewhere. */
const PAGE_POLICY = pagePolicy("form-action 'none'");

/**
 * The embedded widget's page (the widgetUrl of a widget token), its compiled files, and the host
 * script operators load. The page may be framed only by its allowed origin, and is served only for
 * an origin a live widget token was issued for.
 */
export function registerWidgetRoutes(router: Router, { widgetOrigins: origins, runtime }: Pick<HostedRuntime, 'widgetOrigins' | 'runtime'>): void {
  const assets = widgetAssets();
  registerWidgetOAuthPages(router, assets);
  registerWidgetIcons(router, runtime, assets.defaultIcon);

  router.get('/embedded-widget', async (ctx) => {
    let allowedOrigin: string;
    try {
      allowedOrigin = checkAllowedOrigin(String(ctx.query.allowedOrigin ?? ''));
    } catch {
      return answerPage(ctx, 400, errorPage('This widget link is not valid: its allowedOrigin is missing or malformed.'), "frame-ancestors 'none'");
    }
    if (!(await origins.isLive(allowedOrigin))) {
      return answerPage(
        ctx,
        403,
        errorPage('This widget link has expired. Close it and open the widget again from the app.'),
        `frame-ancestors ${allowedOrigin}`,
      );
    }
    answerPage(ctx, 200, assets.page, `frame-ancestors ${allowedOrigin}`);
  });

  router.get(`${WIDGET_ASSETS_PATH}:file`, (ctx) => {
    const asset = assets.files.get(ctx.params.file ?? '');
    if (!asset) return;
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = asset.type;
    ctx.body = asset.body;
  });

  router.get('/embedded-widget.js', (ctx) => {
    // Loaded by operators' pages as a module script, which browsers fetch with CORS.
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = assets.hostScript;
  });
}

function answerPage(ctx: ParameterizedContext, status: number, html: string, frameAncestors: string): void {
  ctx.status = status;
  ctx.set('Content-Security-Policy', `${PAGE_POLICY}; ${frameAncestors}`);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}

function errorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Widget unavailable</title></head><body><p role="alert">${message}</p></body></html>`;
}
