import { readdirSync, readFileSync } from 'node:fs';
import type { Router } from '@koa/router';
import { escapeHtml } from './escape-html.ts';

const DOCS_DIR = new URL('../docs/', import.meta.url);

/** The project's docs the server serves: the Markdown files of docs/ and docs/connectors/, found once at start. */
function docPages(): Map<string, string> {
  const pages = new Map<string, string>();
  for (const folder of ['', 'connectors/']) {
    let names: string[];
    try {
      names = readdirSync(new URL(folder, DOCS_DIR)).filter((name) => name.endsWith('.md'));
    } catch {
      continue;
    }
    for (const name of names.sort()) pages.set(`${folder}${name}`, readFileSync(new URL(`${folder}${name}`, DOCS_DIR), 'utf8'));
  }
  return pages;
}

/** A doc's title: its first heading, else its file name. */
function titleOf(name: string, text: string): string {
  return /^# (.+)$/m.exec(text)?.[1] ?? name;
}

const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#1d1d1f}code{background:#f2f2f4;padding:0 .25em}';

/**
 * `/`: what a newcomer who opens the server in a browser wants: the docs (served as Markdown, so they
 * read as written), the OpenAPI description, and how to see the widget. `/docs/<file>.md`: one doc.
 */
export function registerLandingPage(router: Router): void {
  const pages = docPages();
  const links = [...pages].map(([name, text]) => `<li><a href="/docs/${name}">${escapeHtml(titleOf(name, text))}</a></li>`).join('');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plugboard</title><style>${STYLE}</style></head><body>
<h1>Plugboard</h1>
<p>This server runs Plugboard's hosted API, the public cloud API (<code>/v1</code>) and the embedded widget.</p>
<ul><li><a href="/openapi.json">The OpenAPI description</a> of every route</li>
<li><a href="/healthz">Health</a></li>
<li>The widget demo: <code>npm run widget:demo</code> starts the sandboxes, a server and a sample operator page (port 8081) that opens the widget</li></ul>
<h2>Docs</h2><ul>${links}</ul></body></html>`;
  router.get('/', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    ctx.body = html;
  });
  router.get('/docs/{*path}', (ctx) => {
    const text = pages.get(String(ctx.params.path ?? ''));
    if (text === undefined) return;
    ctx.type = 'text/markdown; charset=utf-8';
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = text;
  });
}
