/**
 * A sample operator page on its own origin, as an operator's web app would embed the widget: its
 * backend route (`/widget-token`) gets an operator token with the application's credentials and asks
 * Plugboard for a widget token for this page's origin; its front end (operator-page/app.js) opens the
 * widget with it. Used by `npm run widget:demo` and by the browser tests.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { listen } from '../testing/sandbox-kit.ts';

export interface OperatorPageOptions {
  /** The Plugboard server, e.g. http://127.0.0.1:8080. */
  plugboardUrl: string;
  clientId: string;
  clientSecret: string;
  workspaceName: string;
  port?: number;
}

export interface OperatorPage {
  url: string;
  close(): Promise<void>;
}

const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

export async function startOperatorPage(options: OperatorPageOptions): Promise<OperatorPage> {
  let origin = '';
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    try {
      if (url.pathname === '/widget-token') {
        const token = await widgetToken(options, origin, url.searchParams);
        response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ token }));
        return;
      }
      const served = FILES[url.pathname];
      if (!served) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      let body = readFileSync(new URL(`./operator-page/${served.file}`, import.meta.url), 'utf8');
      if (served.file === 'index.html') body = body.replace('<html lang="en">', `<html lang="en" data-plugboard="${options.plugboardUrl}">`);
      response.writeHead(200, { 'content-type': served.type, 'cache-control': 'no-store' }).end(body);
    } catch (error) {
      response.writeHead(502, { 'content-type': 'text/plain' }).end(`Could not get a widget token: ${(error as Error).message}`);
    }
  });
  origin = await listen(server, options.port ?? 0);
  return {
    url: origin,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The operator backend's part: operator token, then a widget token for this page's origin. The page's
 * query may narrow the templates offered (`?tags=chat,files&mode=all`), as an operator's app would, and
 * name the end user's workspace (`?workspace=`).
 */
async function widgetToken(options: OperatorPageOptions, origin: string, query: URLSearchParams): Promise<string> {
  const post = async (path: string, body: unknown, bearer?: string) => {
    const response = await fetch(`${options.plugboardUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    return (await response.json()) as Record<string, string>;
  };
  const { access_token } = await post('/api/v1/account/applications/token', { client_id: options.clientId, client_secret: options.clientSecret });
  const tags = query.get('tags');
  const { token } = await post(
    '/api/v1/embedded/widget-token',
    {
      workspace_name: query.get('workspace') ?? options.workspaceName,
      allowed_origin: origin,
      ...(tags ? { selected_source_template_tags: tags.split(','), selected_source_template_tags_mode: query.get('mode') ?? 'any' } : {}),
    },
    access_token,
  );
  return token!;
}
