import { defineConnector } from '../../core/sdk/index.ts';
import replicationConfig from '../../schemas/chat/replication-config.json' with { type: 'json' };
import { usersActions } from './actions/users.ts';
import { channelsActions } from './actions/channels.ts';
import { channelMessagesActions } from './actions/channel-messages.ts';
import { threadsActions } from './actions/threads.ts';
import { messagesActions } from './actions/messages.ts';
import { channelSettingsActions } from './actions/channel-settings.ts';
import { reactionsActions } from './actions/reactions.ts';
import { authTestActions } from './actions/auth-test.ts';
import { slackErrors } from './upstream-errors.ts';
import { replicateChat } from './replication.ts';
import { chatSyncStreams } from './sync-streams.ts';
import { BOT_SCOPES } from './bot-scopes.ts';

/** The team-chat connector, on the Slack Web API: users, channels, messages and threads, reactions. */
export default defineConnector({
  type: 'chat',
  displayName: 'Team chat (Slack Web API)',
  icon: new URL('./icon.svg', import.meta.url).href,
  auth: {
    oauth: { header: 'Authorization', scheme: 'Bearer' },
    token: { header: 'Authorization', scheme: 'Bearer' },
    // Slack's v2 flow for a bot token. With token rotation on, refresh tokens are single-use: a second use revokes the grant.
    oauth2: {
      providerName: 'Slack',
      authorizeUrl: 'https://slack.com/oauth/v2/authorize',
      tokenUrl: 'https://slack.com/api/oauth.v2.access',
      scopes: BOT_SCOPES,
      scopeSeparator: ',',
      // A revoked token is renewed too: the refresh then fails for good, and the source is marked for reconnection.
      expiredToken: { codes: ['token_expired', 'token_revoked'] },
      revokedCodes: ['invalid_refresh_token', 'invalid_grant'],
    },
  },
  defaultBaseUrl: 'https://slack.com/api',
  transport: { timeoutMs: 30_000, maxRetries: 3, maxRetryAfterSeconds: 60, errors: slackErrors },
  pagination: { cursorParam: 'cursor', nextCursorMeta: 'next_cursor' },
  replicationConfig,
  replicate: replicateChat,
  syncStreams: chatSyncStreams,
  actions: [
    ...usersActions,
    ...channelsActions,
    ...channelMessagesActions,
    ...threadsActions,
    ...messagesActions,
    ...channelSettingsActions,
    ...reactionsActions,
    ...authTestActions,
  ],
  // auth.test needs no scope, so it tells a refused token from one that merely lacks a scope.
  check: {
    entity: 'auth_test',
    action: 'get',
    rejectedCodes: ['not_authed', 'invalid_auth', 'account_inactive', 'token_revoked', 'token_expired'],
  },
});
