import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type CryptoKey, type JWK, type JWTHeaderParameters } from 'jose';
import { AuthenticationError } from '../errors.ts';
import { UndecryptableValueError, type DataKeyring } from '../security/data-keyring.ts';
import { KeyConfigurationError } from '../security/key-configuration-error.ts';
import type { SigningKey, Store } from '../stores/types.ts';
import {
  checkTokenClaims,
  SCOPED_TOKEN_TTL_SECONDS,
  TOKEN_TTL_SECONDS,
  WORKSPACE_SCOPE_CLAIM,
  type ClaimsFor,
  type TokenClaims,
  type TokenUse,
  type WidgetScope,
} from './token-claims.ts';
import type { JsonWebKeySet, PublicSigningKey } from './types.generated.ts';

const ALG = 'ES256';
const AUDIENCE = 'plugboard-api';
/** Keys are re-read at most this often: rotations made by another instance show up quickly. */
export const KEY_REFRESH_MS = 30_000;
/** Clocks of instances sharing a database may disagree this much. */
export const CLOCK_SKEW_MS = 60_000;
/**
 * How long a key verifies after it stopped signing. Another instance may keep signing with it until
 * its next key refresh, so its last tokens expire up to a refresh interval after the retirement, plus
 * the longest token lifetime, plus the skew between the rotating instance's clock and the others'.
 */
export const RETIRED_KEY_GRACE_MS = SCOPED_TOKEN_TTL_SECONDS * 1000 + KEY_REFRESH_MS + CLOCK_SKEW_MS;
/** Verified tokens remembered at most (oldest forgotten first). */
const VERIFIED_CACHE_SIZE = 10_000;
/** Least time between two reloads caused by tokens with a kid this instance does not know. */
const UNKNOWN_KID_RELOAD_GAP_MS = 250;
/** Advisory-lock key serialising the first signing key's creation across instances sharing a database. */
const SIGNING_KEYS_LOCK = 7_263_106;

interface LoadedKey {
  record: SigningKey;
  publicKey: CryptoKey | Uint8Array;
}

export interface TokenServiceOptions {
  /** Milliseconds since the epoch; tests move it to cross key refreshes and lifetimes. */
  clock?: () => number;
  /** Told about a key problem the service works around (it never carries key material). */
  onKeyProblem?: (message: string) => void;
}

/**
 * Issues and verifies the server's JWTs: ES256 with a `kid`, keys kept in the store (private halves
 * encrypted) so every instance shares them, several keys live at once so rotation never invalidates
 * tokens in flight, `alg` pinned, and `token_use` making each token usable only where it belongs.
 */
export class TokenService {
  private keys: LoadedKey[] = [];
  private signing: { kid: string; key: CryptoKey | Uint8Array } | null = null;
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  private readonly verified = new Map<string, { claims: TokenClaims; expiresAt: number }>();
  private readonly clock: () => number;
  private readonly onKeyProblem: (message: string) => void;

  constructor(
    private readonly store: Store,
    private readonly keyring: DataKeyring,
    private readonly issuer: string,
    options: TokenServiceOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.onKeyProblem = options.onKeyProblem ?? (() => undefined);
  }

  /**
   * Loads the keys (making the first one of an empty install) and checks that the active signing key
   * opens with this instance's data keys: an instance that could not sign refuses to start, with a
   * KeyConfigurationError, rather than answer every token request with a 500.
   */
  async start(): Promise<void> {
    await this.reload(0);
  }

  async issueOperatorToken(clientId: string, organizationId: string): Promise<string> {
    return this.sign({ token_use: 'operator', organization_id: organizationId }, clientId, TOKEN_TTL_SECONDS.operator);
  }

  /**
   * A fresh operator token for the same application when more than half of this one's life is spent
   * (a console session kept alive while in use), else undefined: the token in hand still serves.
   */
  async renewOperatorToken(claims: ClaimsFor<'operator'>): Promise<string | undefined> {
    const halfLife = (claims.exp - claims.iat) / 2;
    if (Math.floor(this.clock() / 1000) < claims.iat + halfLife) return undefined;
    return this.issueOperatorToken(claims.sub, claims.organization_id);
  }

  /** A scoped token for a workspace, minted by an application: it does no more there than the application may. */
  async issueScopedToken(organizationId: string, workspaceId: string, applicationId: string): Promise<string> {
    return this.sign(
      { token_use: 'scoped', organization_id: organizationId, [WORKSPACE_SCOPE_CLAIM]: { workspaceId }, application_id: applicationId },
      workspaceId,
      TOKEN_TTL_SECONDS.scoped,
    );
  }

  /** The scoped token of a widget token, carrying its scope (issue it with HostedRuntime.issueWidgetToken, which records the origin). */
  async issueWidgetScopedToken(organizationId: string, workspaceId: string, widget: WidgetScope, applicationId: string): Promise<string> {
    return this.sign(
      { token_use: 'widget', organization_id: organizationId, [WORKSPACE_SCOPE_CLAIM]: { workspaceId }, application_id: applicationId, widget },
      workspaceId,
      TOKEN_TTL_SECONDS.widget,
    );
  }

  /** Verifies a bearer token for one use (or any of several); any failure is the same 401, whatever the cause. */
  async verify<U extends TokenUse>(token: string, use: U | readonly U[]): Promise<ClaimsFor<U>> {
    const uses: readonly TokenUse[] = Array.isArray(use) ? use : [use];
    const claims = await this.verifyAny(token);
    if (!uses.includes(claims.token_use)) throw new AuthenticationError();
    return claims as ClaimsFor<U>;
  }

  /**
   * The claims of a token, whatever its use; any failure is the same 401, whatever the cause. Signature,
   * registered claims and the claims' schema are checked once per token: a verified token is remembered
   * until it expires (a client sends the same token many times, and ES256 verification is the costly part).
   */
  async verifyAny(token: string): Promise<TokenClaims> {
    const cached = this.verified.get(token);
    if (cached && cached.expiresAt > this.clock()) return cached.claims;
    if (cached) this.verified.delete(token);
    await this.ensureKeys();
    try {
      const { payload } = await jwtVerify(token, (header) => this.publicKeyFor(header), {
        algorithms: [ALG],
        issuer: this.issuer,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'iat', 'jti', 'sub'],
        currentDate: new Date(this.clock()),
      });
      const claims = checkTokenClaims(payload, Math.floor(this.clock() / 1000), CLOCK_SKEW_MS / 1000);
      if (!claims) throw new AuthenticationError();
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { claims, expiresAt: claims.exp * 1000 });
      return claims;
    } catch {
      throw new AuthenticationError();
    }
  }

  /** The public keys that verify live tokens, for `GET /.well-known/jwks.json`. */
  async jwks(): Promise<JsonWebKeySet> {
    await this.ensureKeys();
    return {
      keys: this.keys.map(({ record }) => {
        // The store keeps the JWK createSigningKey exported: a P-256 public key's.
        const publicKey = record.public_jwk as Pick<PublicSigningKey, 'kty' | 'crv' | 'x' | 'y'>;
        return { ...publicKey, kid: record.kid, alg: ALG, use: 'sig' };
      }),
    };
  }

  /** Makes a new signing key and retires the current one, which keeps verifying its tokens. */
  async rotateSigningKey(): Promise<string> {
    await this.ensureKeys();
    const previous = this.keys.filter((k) => k.record.retired_at === null);
    const kid = await this.createSigningKey();
    const now = new Date(this.clock()).toISOString();
    for (const key of previous) await this.store.retireSigningKey(key.record.kid, now);
    await this.reloadKeys();
    return kid;
  }

  private async sign(claims: object, subject: string, ttlSeconds: number): Promise<string> {
    await this.ensureKeys();
    const { kid, key } = this.signing!;
    const header: JWTHeaderParameters = { alg: ALG, kid, typ: 'JWT' };
    const now = Math.floor(this.clock() / 1000);
    return new SignJWT({ ...claims })
      .setProtectedHeader(header)
      .setIssuer(this.issuer)
      .setAudience(AUDIENCE)
      .setSubject(subject)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .sign(key);
  }

  private async publicKeyFor(header: JWTHeaderParameters): Promise<CryptoKey | Uint8Array> {
    let found = this.keys.find((k) => k.record.kid === header.kid);
    if (!found) {
      // Another instance may have rotated: re-read the keys (coalesced and spaced, so forged kids can't flood the store).
      await this.reload(UNKNOWN_KID_RELOAD_GAP_MS);
      found = this.keys.find((k) => k.record.kid === header.kid);
    }
    if (!found) throw new Error('unknown key');
    return found.publicKey;
  }

  private async ensureKeys(): Promise<void> {
    if (this.signing && this.clock() - this.loadedAt < KEY_REFRESH_MS) return;
    await this.reload(0);
  }

  /** One reload at a time, started no sooner than `gapMs` after the previous one; callers share it. */
  private reload(gapMs: number): Promise<void> {
    this.loading ??= (async () => {
      const wait = this.loadedAt + gapMs - this.clock();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await this.reloadKeys();
    })().finally(() => (this.loading = null));
    return this.loading;
  }

  private async reloadKeys(): Promise<void> {
    let records = await this.store.listSigningKeys();
    if (!records.some((k) => k.retired_at === null)) {
      await this.createFirstSigningKey();
      records = await this.store.listSigningKeys();
    }
    const now = this.clock();
    const active = records.find((k) => k.retired_at === null)!;
    const signing = await this.openSigningKey(active);
    // The key this instance signs with verifies whatever its age (see openSigningKey on when it is an old one).
    const live = records.filter((k) => k.retired_at === null || now - Date.parse(k.retired_at) < RETIRED_KEY_GRACE_MS || k.kid === signing.kid);
    this.keys = await Promise.all(live.map(async (record) => ({ record, publicKey: await importJWK(record.public_jwk as JWK, ALG) })));
    this.signing = signing;
    this.loadedAt = now;
  }

  /**
   * The private half of the active key. One this instance's data keys cannot open is refused at start
   * (KeyConfigurationError); found later (written by an instance configured otherwise), the key signing
   * so far stays in use, so requests keep working, and the problem is reported.
   */
  private async openSigningKey(active: SigningKey): Promise<{ kid: string; key: CryptoKey | Uint8Array }> {
    if (this.signing?.kid === active.kid) return this.signing;
    let privateJwk: JWK;
    try {
      privateJwk = JSON.parse(this.keyring.decrypt(active.private_jwk)) as JWK;
    } catch (error) {
      if (!(error instanceof UndecryptableValueError)) throw error;
      const problem = signingKeyProblem(active.kid, error);
      if (!this.signing) throw new KeyConfigurationError(`${problem}; refusing to start.`);
      this.onKeyProblem(`${problem}; still signing with key ${this.signing.kid}.`);
      return this.signing;
    }
    return { kid: active.kid, key: await importJWK(privateJwk, ALG) };
  }

  private async createSigningKey(): Promise<string> {
    const key = await this.newSigningKey();
    await this.store.insertSigningKey(key);
    return key.kid;
  }

  /**
   * The key of an empty install. Instances starting together take turns under the lock, and each looks
   * again inside it: only the first to find no active key adds one, so they all sign with the same.
   */
  private async createFirstSigningKey(): Promise<void> {
    // Made before the transaction: the lock must not wait for key generation.
    const key = await this.newSigningKey();
    await this.store.transaction(async (tx) => {
      if (!(await tx.listSigningKeys()).some((k) => k.retired_at === null)) await tx.insertSigningKey(key);
    }, SIGNING_KEYS_LOCK);
  }

  private async newSigningKey(): Promise<SigningKey> {
    const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true });
    return {
      kid: randomUUID(),
      alg: ALG,
      public_jwk: (await exportJWK(publicKey)) as Record<string, unknown>,
      private_jwk: this.keyring.encrypt(JSON.stringify(await exportJWK(privateKey))),
      created_at: new Date(this.clock()).toISOString(),
      retired_at: null,
    };
  }
}

/** Why the active signing key does not open, and what to do: key ids only, never key material. */
function signingKeyProblem(kid: string, error: UndecryptableValueError): string {
  const cause =
    error.reason === 'unknown_key'
      ? `the active token-signing key (kid ${kid}) is encrypted with data key "${error.keyId}", which is not among this instance's data keys`
      : `data key "${error.keyId}" of this instance does not open the active token-signing key (kid ${kid}): another key is configured under that id`;
  return `${cause}. Every instance sharing the database needs the same PLUGBOARD_DATA_KEYS (keys may be added in front, never dropped)`;
}
