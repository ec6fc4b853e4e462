import type { IncomingMessage, ServerResponse } from 'node:http';

const MAX_FORM_BYTES = 64 * 1024;

/**
 * The fields of a form (or JSON object) body, or null when it is larger than a form can sensibly be.
 * OAuth endpoints take `application/x-www-form-urlencoded`; JSON objects are read too, as both providers do.
 */
export function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_FORM_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_FORM_BYTES ? null : parseForm(Buffer.concat(chunks).toString('utf8'), req.headers['content-type'])));
    req.on('error', reject);
  });
}

function parseForm(text: string, contentType: string | undefined): URLSearchParams {
  if (!/^application\/json\b/i.test(contentType ?? '')) return new URLSearchParams(text);
  const fields = new URLSearchParams();
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [key, field] of Object.entries(value)) if (typeof field === 'string' || typeof field === 'number') fields.set(key, String(field));
    }
  } catch {
    // A malformed body carries no fields: the endpoint then answers for the missing ones.
  }
  return fields;
}

/** Client credentials by HTTP Basic (RFC 6749 §2.3.1: each part form-encoded) or else by body fields. */
export function clientCredentials(
  authorization: string | undefined | null,
  fields: { get(name: string): string | null | undefined },
): { id: string; secret: string } {
  const basic = /^Basic\s+(\S+)$/i.exec(authorization?.trim() ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  }
  return { id: fields.get('client_id') ?? '', secret: fields.get('client_secret') ?? '' };
}

function formDecode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/** `uri` with `params` appended to its query (keeping any query it already has). */
export function withQuery(uri: string, params: Array<[string, string]>): string {
  const url = new URL(uri);
  for (const [key, value] of params) url.searchParams.append(key, value);
  return url.href;
}

/** Whether a redirect_uri can be redirected to: an absolute http(s) URL without a fragment (RFC 6749 §3.1.2). */
export function isRedirectUri(uri: string): boolean {
  if (!URL.canParse(uri)) return false;
  const url = new URL(uri);
  return (url.protocol === 'http:' || url.protocol === 'https:') && !uri.includes('#');
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    // Consent pages refuse to be framed, as the real ones do (clickjacking).
    'x-frame-options': 'DENY',
  });
  res.end(html);
}

export function sendRedirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, 'content-length': 0, 'cache-control': 'no-store' });
  res.end();
}

/** Token endpoint answers: never cached (RFC 6749 §5.1). */
export function sendTokenJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = `${JSON.stringify(body, null, 2)}\n`;
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
    pragma: 'no-cache',
  });
  res.end(text);
}
