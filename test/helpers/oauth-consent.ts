import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { oauth } from '../../testing/index.ts';
import { expect } from 'vitest';
import type { HostedFixture } from './hosted-fixture.ts';
import type { publicApiCalls } from './public-api-calls.ts';

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
  const page = await oauth.openConsentPage(consentUrl);
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${page.html.slice(0, 300)}`);
  if (!new RegExp(`<button name="decision" value="${decision}">`).test(page.html)) throw new Error(`no ${decision} button on the consent page`);
  const posted = await oauth.submitConsent(page, decision);
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

const DECLARATIVE_EXAMPLE = readFileSync(new URL('../../docs/examples/declarative-source.yaml', import.meta.url), 'utf8');

/**
 * The docs' declarative source as type `type`, calling the fixture's chat sandbox, with an OAuth flow
 * on the sandbox's consent page and `tokenUrl` (none when undefined).
 */
export function declarativeManifest(fx: HostedFixture, type: string, tokenUrl?: string): { auth: Record<string, unknown> } {
  const manifest: { auth: Record<string, unknown> } = parse(
    DECLARATIVE_EXAMPLE.replace('type: team-members', `type: ${type}`).replace('https://slack.com/api', fx.chatSandbox.url),
  );
  if (tokenUrl !== undefined) {
    manifest.auth.oauth2 = {
      providerName: 'Team members',
      authorizeUrl: fx.chatSandbox.authorizeUrl,
      tokenUrl,
      scopes: ['users:read'],
      scopeSeparator: ',',
      expiredToken: { codes: ['token_expired'] },
    };
  }
  return manifest;
}

/** Publishes a declarative definition in the workspace through the public API (expecting a 200); its id. */
export async function publishDeclarative(call: ReturnType<typeof publicApiCalls>, workspaceId: string, name: string, manifest: object): Promise<string> {
  const path = `/workspaces/${workspaceId}/definitions/declarative_sources`;
  const answer = await call('post', '/workspaces/{workspaceId}/definitions/declarative_sources', path, { body: { name, workspaceId, manifest } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.id as string;
}
