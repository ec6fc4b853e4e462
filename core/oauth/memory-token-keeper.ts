import type { TokenKeeper, TokenState } from './refreshing-access-token.ts';

/**
 * An in-process instance's keeper: the live tokens in memory, and the embedding app told of each
 * renewal so it can persist them (a rotated refresh token is the only one that still works).
 */
export class MemoryTokenKeeper implements TokenKeeper {
  constructor(
    private state: TokenState,
    private readonly onRenewed?: (state: TokenState) => unknown,
  ) {}

  async renew(stale: string, grant: (current: TokenState) => Promise<TokenState>): Promise<TokenState> {
    if (this.state.accessToken !== stale) return this.state;
    this.state = await grant(this.state);
    try {
      await this.onRenewed?.(this.state);
    } catch (error) {
      // The call goes on with the new token; the app's failure to persist it is its own to see.
      process.emitWarning(`onCredentialsRefreshed failed: ${error instanceof Error ? error.message : String(error)}`, 'PLUGBOARD_CREDENTIALS_REFRESHED');
    }
    return this.state;
  }
}
