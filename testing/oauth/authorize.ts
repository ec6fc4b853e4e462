import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OAuthAuthority } from './authority.ts';
import { readForm, sendHtml, sendRedirect, withQuery } from './http.ts';
import { type ConsentContent, consentPage, type ErrorPageContent, errorPage } from './page.ts';

export interface AuthorizeRefusal {
  status: number;
  /** Counted in the stats' `refused`. */
  code: string;
  page: ErrorPageContent;
}

/** A provider's side of the authorization endpoint; the GET/POST mechanics are shared. */
export interface AuthorizeProvider {
  /** The endpoint's path, where the consent form posts back to. */
  readonly path: string;
  /** A request the provider refuses outright; undefined guarantees a usable `redirect_uri`. */
  refuse(params: URLSearchParams): AuthorizeRefusal | undefined;
  consent(params: URLSearchParams): ConsentContent;
  /** The parameters the redirect carries when the user allows (a new code among them). */
  allow(params: URLSearchParams): Array<[string, string]>;
}

/**
 * GET shows the consent page; its form POSTs the same parameters back with `decision`. Allow
 * redirects with the provider's code, deny with `error=access_denied` (RFC 6749 §4.1.2.1), each with
 * the request's `state`.
 */
export async function serveAuthorize(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  authority: OAuthAuthority,
  provider: AuthorizeProvider,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'POST') {
    res.writeHead(405, { allow: 'GET, POST', 'content-length': 0 });
    res.end();
    return;
  }
  let params = url.searchParams;
  let decision: string | null = null;
  if (req.method === 'POST') {
    const form = await readForm(req);
    if (form === null)
      return refuse(res, authority, { status: 413, code: 'invalid_request', page: plainError(413, 'invalid_request', 'Request body too large.') });
    decision = form.get('decision');
    form.delete('decision');
    params = form;
  }
  const refusal = provider.refuse(params);
  if (refusal) return refuse(res, authority, refusal);
  if (req.method === 'GET') return sendHtml(res, 200, consentPage(provider.consent(params), provider.path, params));
  const redirectUri = params.get('redirect_uri')!;
  const state = params.get('state');
  const withState: Array<[string, string]> = state === null ? [] : [['state', state]];
  if (decision === 'allow') return sendRedirect(res, withQuery(redirectUri, provider.allow(params)));
  if (decision === 'deny') {
    authority.refuse('access_denied');
    return sendRedirect(res, withQuery(redirectUri, [['error', 'access_denied'], ...withState]));
  }
  refuse(res, authority, { status: 400, code: 'invalid_request', page: plainError(400, 'invalid_request', 'The decision must be allow or deny.') });
}

function refuse(res: ServerResponse, authority: OAuthAuthority, refusal: AuthorizeRefusal): void {
  authority.refuse(refusal.code);
  sendHtml(res, refusal.status, errorPage(refusal.page));
}

/** "Error 400: invalid_request", the way Google titles its error pages; Slack's read alike. */
export function plainError(status: number, code: string, detail: string): ErrorPageContent {
  const title = `Error ${status}: ${code}`;
  return { title, heading: title, detail };
}
