import { MemoryTokenKeeper } from '../oauth/memory-token-keeper.ts';
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
  const initial: TokenState = { accessToken: credentials.secret, refreshToken: grant.refreshToken, expiresAt: credentials.expiresAt };
  const { onCredentialsRefreshed } = config;
  const keeper =
    config.tokenKeeper?.(initial) ??
    new MemoryTokenKeeper(initial, onCredentialsRefreshed && ((state) => onCredentialsRefreshed(credentialsOfState(state, grant))));
  const endpoint = { url: grant.tokenUrl, clientId: grant.clientId, clientSecret: grant.clientSecret, revokedCodes: grant.revokedCodes, egress: config.egress };
  return {
    header: credentials.header,
    headerValue: credentials.headerValue,
    token: new RefreshingAccessToken(initial, endpoint, keeper),
    isExpired: expiredTokenTest(definition),
  };
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
