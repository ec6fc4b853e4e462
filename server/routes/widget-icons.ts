import { readFile } from 'node:fs/promises';
import type { Router } from '@koa/router';
import type { Runtime } from '../../core/runtime/runtime.ts';
import { ICONS_PATH } from '../../widget/icon-path.ts';

/** An SVG is a document that may carry script: opened on its own at the widget's origin, none of it runs. */
const ICON_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * `GET /embedded-widget/icons/<type>.svg`: the icon a listed connector type's definition declares
 * (`icon`), else `fallback`. Public like the widget's other files: an `<img>` sends no token.
 */
export function registerWidgetIcons(router: Router, runtime: Runtime, fallback: Buffer): void {
  const icons = new Map<string, Promise<Buffer>>();
  router.get(`${ICONS_PATH}:file`, async (ctx) => {
    const type = /^(.+)\.svg$/.exec(ctx.params.file ?? '')?.[1];
    // Listed types only: a workspace's own declarative type is nobody else's to see.
    if (type === undefined || !runtime.connectorTypes().includes(type)) return;
    let icon = icons.get(type);
    if (!icon) {
      icon = iconOf(runtime.plugin(type).definition.icon, fallback);
      icons.set(type, icon);
    }
    ctx.set('Content-Security-Policy', ICON_POLICY);
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'image/svg+xml';
    ctx.body = await icon;
  });
}

/** The declared SVG (inline, or its file); the generic one when there is none, or its file can't be read (a template still shows an icon). */
async function iconOf(icon: string | undefined, fallback: Buffer): Promise<Buffer> {
  if (icon === undefined) return fallback;
  try {
    if (icon.startsWith('data:')) return Buffer.from(await (await fetch(icon)).arrayBuffer());
    return await readFile(icon.startsWith('file:') ? new URL(icon) : icon);
  } catch {
    return fallback;
  }
}
