import { createHash } from 'node:crypto';
import { type MemoryTokenKeeper, sharedMemoryKeeper } from '../oauth/memory-token-keeper.ts';
import { RefreshingAccessToken, type TokenKeeper, type TokenState } from '../oauth/refreshing-access-token.ts';
import type { ConnectorDefinition, OAuthCredentials } from '../sdk/index.ts';
import type { RefreshingAuth } from '../transport/http-transport.ts';
import { upstreamCode } from '../transport/upstream-errors.ts';
import type { CheckedCredentials, RefreshGrant } from './credentials.ts';
import type { LocalConnectorConfig } from './runtime.ts';

/** Makes the keeper of one instance's tokens, given the state its credentials start from. */
export type TokenKeeperFactory = (initial: TokenState) => TokenKeeper;

/**
 * The renewed access token of credentials that carry a refresh grant (undefined for any other):
 * kept by the config's keeper (the hosted store), else in memory with the app told of each renewal.
 */
export function refreshingAuthOf(definition: ConnectorDefinition, credentials: CheckedCredentials, config: LocalConnectorConfig): RefreshingAuth | undefined {
  const grant = credentials.refresh;
  if (!grant) return undefined;
  const stored: TokenState = { accessToken: credentials.secret, refreshToken: grant.refreshToken, expiresAt: credentials.expiresAt };
  const endpoint = {
    url: grant.tokenUrl,
    clientId: grant.clientId,
    clientSecret: grant.clientSecret,
    revokedCodes: grant.revokedCodes,
    egress: config.tokenEgress ?? config.egress,
  };
  const token = (initial: TokenState, keeper: TokenKeeper) => new RefreshingAccessToken(initial, endpoint, keeper);
  const refreshing = { header: credentials.header, headerValue: credentials.headerValue, isExpired: expiredTokenTest(definition) };
  if (config.tokenKeeper) return { ...refreshing, token: token(stored, config.tokenKeeper(stored)) };
  // In-process: every instance of these credentials shares one keeper, and starts from its newest tokens.
  const shared = sharedMemoryKeeper(identityOf(grant), stored);
  return { ...refreshing, token: token(shared.current, appKeeper(shared, grant, config.onCredentialsRefreshed)) };
}

/** A shared keeper as one instance sees it: the app told of each renewal this instance made. */
function appKeeper(shared: MemoryTokenKeeper, grant: RefreshGrant, onCredentialsRefreshed: LocalConnectorConfig['onCredentialsRefreshed']): TokenKeeper {
  return {
    renew: (stale, renewWith) =>
      shared.renew(stale, async (current) => {
        const renewed = await renewWith(current);
        try {
          await onCredentialsRefreshed?.(credentialsOfState(renewed, grant));
        } catch (error) {
          // The call goes on with the new token; the app's failure to persist it is its own to see.
          process.emitWarning(`onCredentialsRefreshed failed: ${error instanceof Error ? error.message : String(error)}`, 'PLUGBOARD_CREDENTIALS_REFRESHED');
        }
        return renewed;
      }),
  };
}

/** Which credential a grant is, without keeping its secret: its token endpoint, client and first refresh token, hashed. */
function identityOf(grant: RefreshGrant): string {
  return createHash('sha256').update(`${grant.tokenUrl}\n${grant.clientId}\n${grant.refreshToken}`).digest('base64url');
}

/** The credentials object of a renewed state: what an app persists, and what the hosted store seals. */
export function credentialsOfState(state: TokenState, grant: Pick<RefreshGrant, 'clientId' | 'clientSecret' | 'tokenUrl'>): OAuthCredentials {
  return {
    access_token: state.accessToken,
    refresh_token: state.refreshToken,
    ...(state.expiresAt === undefined ? {} : { expires_at: new Date(state.expiresAt).toISOString() }),
    client_id: grant.clientId,
    client_secret: grant.clientSecret,
    token_url: grant.tokenUrl,
  };
}

/** The connector's declared sign of an expired access token; without a declaration, a 401. */
function expiredTokenTest(definition: ConnectorDefinition): RefreshingAuth['isExpired'] {
  const expired = definition.auth.oauth2?.expiredToken ?? { status: 401 };
  return (answer) => {
    if (expired.status !== undefined && answer.status === expired.status) return true;
    const code = upstreamCode(answer, definition.transport.errors);
    return code !== undefined && (expired.codes ?? []).includes(code);
  };
}
