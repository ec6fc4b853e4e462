import { consent } from './oauth-consent.ts';
import type { HostedFixture } from './hosted-fixture.ts';
import type { plainPublicApi } from './public-api-calls.ts';

export const SLACK_APP = { client_id: 'console-slack-client', client_secret: 'console-slack-secret' };
export const SLACK_SETTINGS = { start_date: '2024-01-01T00:00:00Z', lookback_window: 0, join_channels: false };

type Call = Awaited<ReturnType<typeof plainPublicApi>>['call'];

/** Registers the organization's Slack OAuth app, so sources of type slack connect by consent. */
export async function registerSlackApp(call: Call): Promise<void> {
  const { data } = await call('get', 'v1/organizations');
  await call('put', `v1/organizations/${data[0].organizationId}/oauthCredentials`, {
    actorType: 'source',
    name: 'slack',
    configuration: { credentials: SLACK_APP },
  });
}

/** A consent on the Slack sandbox, allowed, for the workspace: the secret id Plugboard's callback gave. */
export async function slackSecretId(fx: HostedFixture, call: Call, workspaceId: string): Promise<string> {
  const { consentUrl } = await call('post', 'v1/sources/initiateOAuth', { workspaceId, sourceType: 'slack', redirectUrl: 'https://app.example/connected' });
  return (await consent(fx, consentUrl)).query.secret_id!;
}

/** A slack source connected by consent whose grant is then revoked, found out by a check: it needs connecting again. */
export async function revokedSlackSource(fx: HostedFixture, call: Call, workspaceId: string, name: string): Promise<string> {
  const secretId = await slackSecretId(fx, call, workspaceId);
  const { sourceId } = await call('post', 'v1/sources', { name, workspaceId, configuration: { sourceType: 'slack', ...SLACK_SETTINGS }, secretId });
  fx.chatSandbox.revokeGrants();
  fx.chatSandbox.expireAccessTokens();
  await call('post', 'api/v1/sources/check_connection', { sourceId });
  return sourceId;
}
