import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type CryptoKey, type JWK, type JWTHeaderParameters } from 'jose';
import { AuthenticationError } from '../errors.ts';
import type { DataKeyring } from '../security/data-keyring.ts';
import type { SigningKey, Store } from '../stores/types.ts';
import {
  OPERATOR_TOKEN_TTL_SECONDS,
  SCOPED_TOKEN_TTL_SECONDS,
  WORKSPACE_SCOPE_CLAIM,
  type ClaimsFor,
  type OperatorTokenClaims,
  type ScopedTokenClaims,
  type TokenUse,
  type WidgetScope,
} from './token-claims.ts';

const ALG = 'ES256';
const AUDIENCE = 'plugboard-api';
/** How long a key verifies after it stopped signing: the longest token lifetime. */
const RETIRED_KEY_GRACE_MS = SCOPED_TOKEN_TTL_SECONDS * 1000;
/** Keys are re-read at most this often: rotations made by another instance show up quickly. */
const KEY_REFRESH_MS = 30_000;
/** Verified tokens remembered at most (oldest forgotten first). */
const VERIFIED_CACHE_SIZE = 10_000;
/** Least time between two reloads caused by tokens with a kid this instance does not know. */
const UNKNOWN_KID_RELOAD_GAP_MS = 250;

interface LoadedKey {
  record: SigningKey;
  publicKey: CryptoKey | Uint8Array;
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
  private readonly verified = new Map<string, { claims: Record<string, unknown>; expiresAt: number }>();

  constructor(
    private readonly store: Store,
    private readonly keyring: DataKeyring,
    private readonly issuer: string,
  ) {}

  async issueOperatorToken(clientId: string, organizationId: string): Promise<string> {
    const claims: Omit<OperatorTokenClaims, 'sub'> = { token_use: 'operator', organization_id: organizationId };
    return this.sign(claims, clientId, OPERATOR_TOKEN_TTL_SECONDS);
  }

  async issueScopedToken(organizationId: string, workspaceId: string, widget?: WidgetScope): Promise<string> {
    const claims: Omit<ScopedTokenClaims, 'sub'> = {
      token_use: 'scoped',
      organization_id: organizationId,
      [WORKSPACE_SCOPE_CLAIM]: { workspaceId },
      ...(widget ? { widget } : {}),
    };
    return this.sign(claims, workspaceId, SCOPED_TOKEN_TTL_SECONDS);
  }

  /** Verifies a bearer token for one use (or any of several); any failure is the same 401, whatever the cause. */
  async verify<U extends TokenUse>(token: string, use: U | readonly U[]): Promise<ClaimsFor<U>> {
    const uses: readonly TokenUse[] = Array.isArray(use) ? use : [use];
    const claims = await this.verifySignature(token);
    if (!uses.includes(claims.token_use as TokenUse)) throw new AuthenticationError();
    return claims as unknown as ClaimsFor<U>;
  }

  /**
   * Signature and registered claims, checked once per token: a verified token is remembered until it
   * expires (a clients sends the same token many times, and ES256 verification is the costly part).
   */
  private async verifySignature(token: string): Promise<Record<string, unknown>> {
    const cached = this.verified.get(token);
    if (cached && cached.expiresAt > Date.now()) return cached.claims;
    if (cached) this.verified.delete(token);
    await this.ensureKeys();
    try {
      const { payload } = await jwtVerify(token, (header) => this.publicKeyFor(header), {
        algorithms: [ALG],
        issuer: this.issuer,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'iat', 'jti', 'sub'],
      });
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { claims: payload, expiresAt: payload.exp! * 1000 });
      return payload;
    } catch {
      throw new AuthenticationError();
    }
  }

  /** The public keys that verify live tokens, for `GET /.well-known/jwks.json`. */
  async jwks(): Promise<{ keys: JWK[] }> {
    await this.ensureKeys();
    return { keys: this.keys.map(({ record }) => ({ ...record.public_jwk, kid: record.kid, alg: ALG, use: 'sig' })) };
  }

  /** Makes a new signing key and retires the current one, which keeps verifying its tokens. */
  async rotateSigningKey(): Promise<string> {
    await this.ensureKeys();
    const previous = this.keys.filter((k) => k.record.retired_at === null);
    const kid = await this.createSigningKey();
    const now = new Date().toISOString();
    for (const key of previous) await this.store.retireSigningKey(key.record.kid, now);
    await this.reloadKeys();
    return kid;
  }

  private async sign(claims: object, subject: string, ttlSeconds: number): Promise<string> {
    await this.ensureKeys();
    const { kid, key } = this.signing!;
    const header: JWTHeaderParameters = { alg: ALG, kid, typ: 'JWT' };
    return new SignJWT({ ...claims })
      .setProtectedHeader(header)
      .setIssuer(this.issuer)
      .setAudience(AUDIENCE)
      .setSubject(subject)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
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
    if (this.signing && Date.now() - this.loadedAt < KEY_REFRESH_MS) return;
    await this.reload(0);
  }

  /** One reload at a time, started no sooner than `gapMs` after the previous one; callers share it. */
  private reload(gapMs: number): Promise<void> {
    this.loading ??= (async () => {
      const wait = this.loadedAt + gapMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await this.reloadKeys();
    })().finally(() => (this.loading = null));
    return this.loading;
  }

  private async reloadKeys(): Promise<void> {
    let records = await this.store.listSigningKeys();
    if (!records.some((k) => k.retired_at === null)) {
      await this.createSigningKey();
      records = await this.store.listSigningKeys();
    }
    const now = Date.now();
    const live = records.filter((k) => k.retired_at === null || now - Date.parse(k.retired_at) < RETIRED_KEY_GRACE_MS);
    this.keys = await Promise.all(live.map(async (record) => ({ record, publicKey: await importJWK(record.public_jwk as JWK, ALG) })));
    const active = live.find((k) => k.retired_at === null)!;
    const privateJwk = JSON.parse(this.keyring.decrypt(active.private_jwk)) as JWK;
    this.signing = { kid: active.kid, key: await importJWK(privateJwk, ALG) };
    this.loadedAt = now;
  }

  private async createSigningKey(): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true });
    const kid = randomUUID();
    await this.store.insertSigningKey({
      kid,
      alg: ALG,
      public_jwk: (await exportJWK(publicKey)) as Record<string, unknown>,
      private_jwk: this.keyring.encrypt(JSON.stringify(await exportJWK(privateKey))),
      created_at: new Date().toISOString(),
      retired_at: null,
    });
    return kid;
  }
}
