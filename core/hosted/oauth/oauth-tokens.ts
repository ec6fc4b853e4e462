import { createHash } from 'node:crypto';
import { CredentialsExpiredError } from '../../errors.ts';
import type { TokenKeeper, TokenState } from '../../oauth/refreshing-access-token.ts';
import type { DataKeyring } from '../../security/data-keyring.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { LocalConnectorConfig } from '../../runtime/runtime.ts';

/** Whether a refreshable credential still works, or its grant is gone and the end user must connect again. */
export type CredentialStatus = 'active' | 'needs_reauth';

/** Where the renewed tokens of a stored connector's and of a public API source's credentials are kept. */
export const credentialKeys = {
  connector: (id: string) => `connector:${id}`,
  source: (id: string) => `source:${id}`,
};

/** Whether a stored connector's or a public API source's credential is still stored, by the kind its key names. */
export type StoredCredentials = Record<keyof typeof credentialKeys, (id: string) => Promise<boolean>>;

/** Which credential a renewal belongs to (the refresh token it was stored with), and where an instance of it started. */
interface CredentialOrigin {
  origin: string;
  initial: TokenState;
}

interface TokenRow {
  origin: string;
  key_id: string;
  ciphertext: string;
  status: CredentialStatus;
  refresh_count: number;
}

/** What the table keeps of a credential: its live tokens, whether they still work, how often they were renewed. */
export interface KeptTokens {
  state: TokenState;
  status: CredentialStatus;
  refreshCount: number;
}

/**
 * The live tokens of the hosted server's refreshable credentials (`connector:<id>`, `source:<id>`),
 * sealed with the data keys. A credential's stored configuration keeps what it was created with; the
 * tokens renewed since live here. Every renewal goes through one flight per credential: in this
 * process a shared promise, and on PostgreSQL an advisory lock held while the provider is asked, so
 * instances sharing the database never send one refresh token twice (Slack revokes a grant whose
 * rotated refresh token comes back).
 */
export class OAuthTokens {
  private readonly flights = new Map<string, Promise<TokenState>>();

  constructor(
    private readonly db: SqlDriver,
    private readonly keyring: DataKeyring,
    /** Told where a grant is found gone, with the mark's transaction on PostgreSQL (the organization's webhook hears of it). */
    private readonly expired?: (db: SqlDriver, credentialKey: string) => Promise<void>,
    /** Asked once a renewal is kept: a credential deleted while its renewal was in flight keeps nothing. */
    private readonly stored?: StoredCredentials,
  ) {}

  /**
   * The keeper of one credential's tokens, for the runtime's instances of it: `origin` is the refresh
   * token the credential was stored with, `initial` the state an instance starts from.
   */
  keeper(credentialKey: string, origin: string, initial: TokenState): TokenKeeper {
    return { renew: (stale, grant) => this.renew(credentialKey, { origin, initial }, stale, grant) };
  }

  /**
   * The kept tokens of the credential that started from `initialRefreshToken`; undefined when never
   * renewed (its configuration holds them) or when what is kept was renewed from credentials since replaced.
   */
  async kept(credentialKey: string, origin: string): Promise<KeptTokens | undefined> {
    return this.keptIn(this.db, credentialKey, origin);
  }

  /**
   * An instance config for stored credentials: started from their renewed tokens when some were
   * kept, its renewals kept under `credentialKey`. Credentials whose grant is gone fail at once.
   */
  async instanceConfig(credentialKey: string, config: LocalConnectorConfig): Promise<LocalConnectorConfig> {
    const { credentials } = config;
    if (!credentials || !('refresh_token' in credentials) || typeof credentials.refresh_token !== 'string') return config;
    const origin = credentials.refresh_token;
    const kept = await this.kept(credentialKey, origin);
    if (kept?.status === 'needs_reauth') throw new CredentialsExpiredError();
    const live = kept && {
      access_token: kept.state.accessToken,
      refresh_token: kept.state.refreshToken,
      expires_at: kept.state.expiresAt === undefined ? undefined : new Date(kept.state.expiresAt).toISOString(),
    };
    return { ...config, credentials: { ...credentials, ...live }, tokenKeeper: (initial) => this.keeper(credentialKey, origin, initial) };
  }

  /** The credentials among `keys` whose grant is gone. */
  async needingReauth(credentialKeys: string[]): Promise<Set<string>> {
    if (credentialKeys.length === 0) return new Set();
    const rows = await this.db.all<{ credential_key: string }>(
      `SELECT credential_key FROM oauth_tokens WHERE status = 'needs_reauth' AND credential_key IN (${credentialKeys.map(() => '?').join(', ')})`,
      credentialKeys,
    );
    return new Set(rows.map((row) => row.credential_key));
  }

  /** The credential was deleted: what was renewed of it goes too. */
  async forget(credentialKey: string): Promise<void> {
    await this.db.run('DELETE FROM oauth_tokens WHERE credential_key = ?', [credentialKey]);
  }

  /**
   * The credential was replaced by `credentials`: what was renewed of the old ones (or found revoked)
   * goes, and what a check of the new ones renewed stays.
   */
  async replaced(credentialKey: string, credentials: object): Promise<void> {
    const origin = 'refresh_token' in credentials && typeof credentials.refresh_token === 'string' ? originOf(credentials.refresh_token) : '';
    await this.db.run('DELETE FROM oauth_tokens WHERE credential_key = ? AND origin <> ?', [credentialKey, origin]);
  }

  private renew(key: string, from: CredentialOrigin, stale: string, grant: (current: TokenState) => Promise<TokenState>): Promise<TokenState> {
    // One flight per credential as stored: a reconnect's new credentials never join the old ones' renewal.
    const flightKey = `${key} ${originOf(from.origin)}`;
    let flight = this.flights.get(flightKey);
    if (!flight) {
      flight = this.underLock(key, (db) => this.renewIn(db, key, from, stale, grant))
        .then(async (outcome) => {
          await this.forgetIfDeleted(key);
          if (outcome instanceof CredentialsExpiredError) throw outcome;
          return outcome;
        })
        .finally(() => this.flights.delete(flightKey));
      this.flights.set(flightKey, flight);
    }
    return flight;
  }

  /**
   * PostgreSQL: a transaction holding the credential's advisory lock, so another instance's flight
   * waits, then finds the tokens renewed. SQLite: one process owns the file, and its flight is the
   * shared promise; a transaction held across the provider's answer would take other writes with it.
   */
  private underLock<T>(key: string, work: (db: SqlDriver) => Promise<T>): Promise<T> {
    return this.db.dialect === 'postgres' ? this.db.transaction(work, lockKeyOf(key)) : work(this.db);
  }

  private async renewIn(
    db: SqlDriver,
    key: string,
    { origin, initial }: CredentialOrigin,
    stale: string,
    grant: (current: TokenState) => Promise<TokenState>,
  ): Promise<TokenState | CredentialsExpiredError> {
    const kept = await this.keptIn(db, key, origin);
    if (kept?.status === 'needs_reauth') return new CredentialsExpiredError();
    const current = kept?.state ?? initial;
    if (current.accessToken !== stale) return current;
    let renewed: TokenState;
    try {
      renewed = await grant(current);
    } catch (error) {
      if (!(error instanceof CredentialsExpiredError)) throw error;
      // Answered, not thrown: the transaction must commit the mark for every instance to see.
      await this.write(db, key, origin, current, 'needs_reauth', kept?.refreshCount ?? 0);
      await this.expired?.(db, key);
      return error;
    }
    await this.write(db, key, origin, renewed, 'active', (kept?.refreshCount ?? 0) + 1);
    return renewed;
  }

  /**
   * After the renewal's write is committed: a delete removes the credential before its tokens, so
   * either it comes after this write and removes it, or the credential is found gone here.
   */
  private async forgetIfDeleted(key: string): Promise<void> {
    // The key is `<kind>:<id>` (credentialKeys).
    const at = key.indexOf(':');
    const isStored = this.stored?.[key.slice(0, at) as keyof StoredCredentials];
    if (isStored && !(await isStored(key.slice(at + 1)))) await this.forget(key);
  }

  private async keptIn(db: SqlDriver, key: string, origin: string): Promise<KeptTokens | undefined> {
    const row = await db.get<TokenRow>('SELECT origin, key_id, ciphertext, status, refresh_count FROM oauth_tokens WHERE credential_key = ?', [key]);
    return row && row.origin === originOf(origin) ? this.open(row) : undefined;
  }

  private async write(db: SqlDriver, key: string, origin: string, state: TokenState, status: CredentialStatus, refreshCount: number): Promise<void> {
    const sealed = this.keyring.encrypt(JSON.stringify(state));
    await db.run(
      `INSERT INTO oauth_tokens (credential_key, origin, key_id, ciphertext, status, refresh_count, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (credential_key) DO UPDATE SET origin = excluded.origin, key_id = excluded.key_id, ciphertext = excluded.ciphertext,
         status = excluded.status, refresh_count = excluded.refresh_count, updated_at = excluded.updated_at`,
      [key, originOf(origin), sealed.key_id, sealed.ciphertext, status, refreshCount, new Date().toISOString()],
    );
  }

  private open(row: TokenRow): KeptTokens {
    const state = JSON.parse(this.keyring.decrypt({ key_id: row.key_id, ciphertext: row.ciphertext })) as TokenState;
    return { state, status: row.status, refreshCount: Number(row.refresh_count) };
  }
}

/** Which credentials a row was renewed from: a hash of the refresh token they were created with, never the token. */
function originOf(initialRefreshToken: string): string {
  return createHash('sha256').update(initialRefreshToken).digest('base64url');
}

/** A credential's advisory-lock key: 48 bits of its key's hash, far from the small constants migrations lock with. */
function lockKeyOf(credentialKey: string): number {
  return 2 ** 40 + createHash('sha256').update(`oauth:${credentialKey}`).digest().readUIntBE(0, 6);
}
