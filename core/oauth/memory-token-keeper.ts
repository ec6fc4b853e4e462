import type { TokenKeeper, TokenState } from './refreshing-access-token.ts';

/**
 * In-process credentials' live tokens, in memory: one keeper per credential, so instances made from
 * the same stored credentials (an app that builds a client per request) share one renewal and its
 * result, and a rotated refresh token is never sent twice.
 */
export class MemoryTokenKeeper implements TokenKeeper {
  private flight: Promise<TokenState> | undefined;

  constructor(private state: TokenState) {}

  /** The newest tokens: where a new instance of the credential starts. */
  get current(): TokenState {
    return this.state;
  }

  renew(stale: string, grant: (current: TokenState) => Promise<TokenState>): Promise<TokenState> {
    if (this.state.accessToken !== stale) return Promise.resolve(this.state);
    this.flight ??= grant(this.state)
      .then((renewed) => {
        this.state = renewed;
        return renewed;
      })
      .finally(() => {
        this.flight = undefined;
      });
    return this.flight;
  }
}

/** Keepers by credential; the least recently used go first past this many (an app's users, not its calls). */
const MAX_KEEPERS = 10_000;
const KEEPERS = new Map<string, MemoryTokenKeeper>();

/** The process's keeper of the credential `identity` names, made from `initial` the first time. */
export function sharedMemoryKeeper(identity: string, initial: TokenState): MemoryTokenKeeper {
  let keeper = KEEPERS.get(identity);
  if (keeper) KEEPERS.delete(identity);
  else {
    keeper = new MemoryTokenKeeper(initial);
    if (KEEPERS.size >= MAX_KEEPERS) KEEPERS.delete(KEEPERS.keys().next().value!);
  }
  KEEPERS.set(identity, keeper);
  return keeper;
}
