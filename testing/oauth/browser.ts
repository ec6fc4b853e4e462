/**
 * A stand-in for the user's browser at a sandbox's consent page: tests (and servers' end-to-end
 * tests) open the page, press Allow or Deny, and read where the provider sends the user back.
 */

export interface ConsentPage {
  status: number;
  html: string;
  /** The form's target, absolute. */
  action: string;
  /** The form's hidden fields: the authorization request as the page carries it. */
  fields: URLSearchParams;
}

export async function openConsentPage(authorizeUrl: string): Promise<ConsentPage> {
  const response = await fetch(authorizeUrl, { redirect: 'manual' });
  const html = await response.text();
  const form = /<form method="post" action="([^"]*)">/.exec(html);
  const fields = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    fields.append(unescapeHtml(name!), unescapeHtml(value!));
  return { status: response.status, html, action: new URL(unescapeHtml(form?.[1] ?? ''), authorizeUrl).href, fields };
}

/** Presses a decision button; the answer is not followed (a redirect's Location is the result). */
export function submitConsent(page: ConsentPage, decision: 'allow' | 'deny'): Promise<Response> {
  const body = new URLSearchParams(page.fields);
  body.set('decision', decision);
  return fetch(page.action, { method: 'POST', body, redirect: 'manual' });
}

/** The whole round: open the page, decide, and return the redirect back to the client (its query holds code or error). */
export async function consentTo(authorizeUrl: string, decision: 'allow' | 'deny'): Promise<URL> {
  const page = await openConsentPage(authorizeUrl);
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${page.html}`);
  const response = await submitConsent(page, decision);
  const location = response.headers.get('location');
  if (response.status !== 302 || location === null) throw new Error(`consent answered ${response.status} without a redirect`);
  return new URL(location);
}

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}
