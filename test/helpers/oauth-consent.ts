import type { HostedFixture } from './hosted-fixture.ts';

/** Where a redirect went: its status, the Location, and the Location's query values. */
export interface Landing {
  status: number;
  location: string;
  query: Record<string, string>;
}

/**
 * An end user at a sandbox's consent page: the page fetched, its form posted back with the decision
 * (its Allow or Deny button), and the provider's redirect to Plugboard's callback answered. Answers
 * the callback URL the provider redirected to.
 */
export async function decideConsent(consentUrl: string, decision: 'allow' | 'deny'): Promise<string> {
  const page = await fetch(consentUrl, { redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${html.slice(0, 300)}`);
  const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error(`no consent form on the page: ${html.slice(0, 300)}`);
  if (!new RegExp(`<button name="decision" value="${decision}">`).test(form[2]!)) throw new Error(`no ${decision} button on the consent page`);
  const fields = new URLSearchParams();
  for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    fields.append(unescapeHtml(input[1]!), unescapeHtml(input[2]!));
  fields.append('decision', decision);
  const posted = await fetch(new URL(unescapeHtml(form[1]!), consentUrl), { method: 'POST', body: fields, redirect: 'manual' });
  const location = posted.headers.get('location');
  if (posted.status !== 302 || !location) throw new Error(`the consent form answered ${posted.status}: ${await posted.text()}`);
  return location;
}

/**
 * Follows a redirect to Plugboard's callback on the fixture's server (the callback URL names the
 * public URL, which does not resolve in tests), without following it further.
 */
export async function callCallback(
  fx: HostedFixture,
  callbackUrl: string,
  headers: Record<string, string> = {},
  prefix = 'v1',
): Promise<Landing & { body: string; contentType?: string }> {
  const url = new URL(callbackUrl);
  const path = url.pathname.replace(/^\/v1\//, `${prefix}/`).replace(/^\//, '');
  const response = await fx.http.get(`${path}${url.search}`, { followRedirect: false, headers });
  const location = response.headers.location ?? '';
  return {
    status: response.statusCode,
    location,
    query: location ? Object.fromEntries(new URL(location).searchParams) : {},
    body: response.body,
    contentType: response.headers['content-type'],
  };
}

/** The whole consent: the page, the decision, the callback; where Plugboard sent the browser. */
export async function consent(fx: HostedFixture, consentUrl: string, decision: 'allow' | 'deny' = 'allow') {
  return callCallback(fx, await decideConsent(consentUrl, decision));
}

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}
