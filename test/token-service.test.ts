/**
 * Signing keys shared by instances: rotation on a clock the test moves (an instance that has not yet
 * re-read the keys keeps signing with the retired one, and those tokens must verify everywhere until
 * they expire), and data keys that cannot open the active signing key.
 */
import { randomBytes } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPED_TOKEN_TTL_SECONDS, WORKSPACE_SCOPE_CLAIM } from '../core/hosted/token-claims.ts';
import { KEY_REFRESH_MS, RETIRED_KEY_GRACE_MS, TokenService } from '../core/hosted/token-service.ts';
import { DataKeyring } from '../core/security/data-keyring.ts';
import { KeyConfigurationError } from '../core/security/key-configuration-error.ts';
import type { Store } from '../core/stores/index.ts';
import { createTestDatabase, type TestDatabase } from './helpers/hosted-fixture.ts';

const ISSUER = 'http://plugboard.test';
const ORG = '6f1d2b1e-8a43-4f5e-9b7c-0d2e4a6b8c10';
const WS = '0b3c5d7e-9f21-4a43-8b65-c7d9e1f3a5b7';
const APP = '2c4e6a8b-1d3f-4b5a-8c7e-9f0a1b2c3d4e';

describe('signing-key rotation between instances', () => {
  let database: TestDatabase;
  let store: Store;
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  const clock = () => now;
  const keyring = new DataKeyring([{ id: 'k1', key: randomBytes(32) }]);

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    store = await database.openStore();
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('the grace of a retired key covers a token lifetime after the last refresh that may still sign with it', () => {
    expect(RETIRED_KEY_GRACE_MS).toBeGreaterThan(SCOPED_TOKEN_TTL_SECONDS * 1000 + KEY_REFRESH_MS);
  });

  it('a token signed with the retired key by a not yet refreshed instance verifies until it expires', async () => {
    const rotating = new TokenService(store, keyring, ISSUER, { clock });
    const lagging = new TokenService(store, keyring, ISSUER, { clock });
    await rotating.start();
    await lagging.start();
    const oldKid = decodeProtectedHeader(await lagging.issueScopedToken(ORG, WS, APP)).kid;

    const rotatedAt = now;
    const newKid = await rotating.rotateSigningKey();
    // The lagging instance read its keys just before the rotation: it signs with the old key for one more refresh interval.
    now = rotatedAt + KEY_REFRESH_MS - 1;
    const late = await lagging.issueScopedToken(ORG, WS, APP);
    expect(decodeProtectedHeader(late).kid).toBe(oldKid);
    const expiresAt = decodeJwt(late).exp! * 1000;
    expect(expiresAt - rotatedAt).toBeGreaterThan(SCOPED_TOKEN_TTL_SECONDS * 1000);

    // Both instances, keys re-read, verify it up to its last second (the old rule dropped the key 30 s before).
    now = expiresAt - 1000;
    await expect(rotating.verify(late, 'scoped')).resolves.toMatchObject({ organization_id: ORG });
    await expect(lagging.verify(late, 'scoped')).resolves.toMatchObject({ organization_id: ORG });
    expect(decodeProtectedHeader(await lagging.issueScopedToken(ORG, WS, APP)).kid).toBe(newKid);
    expect((await rotating.jwks()).keys.map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));

    // Past the grace the old key is gone from the published keys, and its tokens are refused.
    now = rotatedAt + RETIRED_KEY_GRACE_MS + KEY_REFRESH_MS;
    const fresh = new TokenService(store, keyring, ISSUER, { clock });
    await fresh.start();
    expect((await fresh.jwks()).keys.map((k) => k.kid)).toEqual([newKid]);
    await expect(fresh.verify(late, 'scoped')).rejects.toMatchObject({ status: 401 });
  });
});

describe('data keys that cannot open the active signing key', () => {
  let database: TestDatabase;
  let store: Store;
  const material = randomBytes(32);
  const keyring = new DataKeyring([{ id: 'k1', key: material }]);

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    store = await database.openStore();
    await new TokenService(store, keyring, ISSUER).start();
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('refuse the start, naming the data key and never its material', async () => {
    const k2Material = randomBytes(32);
    const missing = new TokenService(store, new DataKeyring([{ id: 'k2', key: k2Material }]), ISSUER).start();
    await expect(missing).rejects.toThrow(KeyConfigurationError);
    await expect(missing).rejects.toThrow(/encrypted with data key "k1", which is not among this instance's data keys.*PLUGBOARD_DATA_KEYS.*refusing to start/);
    const otherMaterial = randomBytes(32);
    const differs = new TokenService(store, new DataKeyring([{ id: 'k1', key: otherMaterial }]), ISSUER).start();
    await expect(differs).rejects.toThrow(/data key "k1" of this instance does not open the active token-signing key/);
    for (const attempt of [missing, differs]) {
      const { message } = (await attempt.catch((error: unknown) => error)) as Error;
      for (const key of [material, k2Material, otherMaterial]) expect(message).not.toContain(key.toString('base64'));
    }
    // A new data key in front of the old one (data-key rotation) still opens it.
    await expect(
      new TokenService(
        store,
        new DataKeyring([
          { id: 'k2', key: k2Material },
          { id: 'k1', key: material },
        ]),
        ISSUER,
      ).start(),
    ).resolves.toBeUndefined();
  });

  it('found while serving (written by an instance configured otherwise), leave the instance signing with its key, and are reported', async () => {
    const problems: string[] = [];
    const tokens = new TokenService(store, keyring, ISSUER, { onKeyProblem: (message) => problems.push(message) });
    await tokens.start();
    const kid = decodeProtectedHeader(await tokens.issueOperatorToken('client', ORG)).kid!;
    // Another instance, with other data keys, rotated: the new active key opens only with its keys.
    const foreign = new DataKeyring([{ id: 'elsewhere', key: randomBytes(32) }]);
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    await store.insertSigningKey({
      kid: 'foreign',
      alg: 'ES256',
      public_jwk: (await exportJWK(publicKey)) as Record<string, unknown>,
      private_jwk: foreign.encrypt(JSON.stringify(await exportJWK(privateKey))),
      created_at: new Date().toISOString(),
      retired_at: null,
    });
    await store.retireSigningKey(kid, new Date().toISOString());
    // A token of the new key makes this instance re-read the keys: it verifies, and signing goes on with the old key.
    const theirs = await new SignJWT({ token_use: 'operator', organization_id: ORG })
      .setProtectedHeader({ alg: 'ES256', kid: 'foreign' })
      .setIssuer(ISSUER)
      .setAudience('plugboard-api')
      .setSubject('client')
      .setJti('j')
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(privateKey);
    await expect(tokens.verify(theirs, 'operator')).resolves.toMatchObject({ organization_id: ORG });
    const ours = await tokens.issueOperatorToken('client', ORG);
    expect(decodeProtectedHeader(ours).kid).toBe(kid);
    await expect(tokens.verify(ours, 'operator')).resolves.toMatchObject({ sub: 'client' });
    expect(problems.join('\n')).toMatch(/data key "elsewhere".*still signing with key/);
  });
});

describe('claims of a correctly signed token', () => {
  let database: TestDatabase;
  let store: Store;
  let tokens: TokenService;
  let sign: (claims: Record<string, unknown>, lifetime?: { iat: number; exp: number }) => Promise<string>;
  const keyring = new DataKeyring([{ id: 'k1', key: randomBytes(32) }]);
  const scope = { [WORKSPACE_SCOPE_CLAIM]: { workspaceId: WS }, application_id: APP };
  const widget = {
    allowed_origin: 'https://app.example',
    source_template_tags: [],
    source_template_tags_mode: 'any',
    connection_template_tags: [],
    connection_template_tags_mode: 'any',
  };

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    store = await database.openStore();
    tokens = new TokenService(store, keyring, ISSUER);
    await tokens.start();
    // The server's own active key: what an attacker holding it, or a bug in issuance, would sign with.
    const [active] = await store.listSigningKeys();
    const privateKey = await importJWK(JSON.parse(keyring.decrypt(active!.private_jwk)) as JWK, 'ES256');
    sign = (claims, lifetime) => {
      const now = Math.floor(Date.now() / 1000);
      const { iat, exp } = lifetime ?? { iat: now, exp: now + 600 };
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: active!.kid })
        .setIssuer(ISSUER)
        .setAudience('plugboard-api')
        .setSubject('sub')
        .setJti('j')
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(privateKey);
    };
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('verifies well-formed claims of each kind', async () => {
    await expect(tokens.verify(await sign({ token_use: 'operator', organization_id: ORG }), 'operator')).resolves.toMatchObject({ organization_id: ORG });
    await expect(tokens.verify(await sign({ token_use: 'scoped', organization_id: ORG, ...scope }), 'scoped')).resolves.toMatchObject(scope);
    await expect(tokens.verify(await sign({ token_use: 'widget', organization_id: ORG, ...scope, widget }), 'widget')).resolves.toMatchObject({ widget });
  });

  it('refuses with a 401 claims this server never issues: no or a null workspace scope, no organization, a future iat, a lifetime longer than its kind allows', async () => {
    const now = Math.floor(Date.now() / 1000);
    const refused: Array<[string, Record<string, unknown>, 'operator' | 'scoped' | 'widget', { iat: number; exp: number }?]> = [
      ['scoped without workspace scope', { token_use: 'scoped', organization_id: ORG }, 'scoped'],
      ['scoped with a null workspace scope', { token_use: 'scoped', organization_id: ORG, [WORKSPACE_SCOPE_CLAIM]: null }, 'scoped'],
      ['scoped with a scope without workspaceId', { token_use: 'scoped', organization_id: ORG, [WORKSPACE_SCOPE_CLAIM]: {} }, 'scoped'],
      ['scoped without the application that minted it', { token_use: 'scoped', organization_id: ORG, [WORKSPACE_SCOPE_CLAIM]: { workspaceId: WS } }, 'scoped'],
      ['scoped without organization', { token_use: 'scoped', ...scope }, 'scoped'],
      ['operator without organization', { token_use: 'operator' }, 'operator'],
      ['operator with a null organization', { token_use: 'operator', organization_id: null }, 'operator'],
      ['widget without its scope', { token_use: 'widget', organization_id: ORG, ...scope }, 'widget'],
      ['unknown token_use', { token_use: 'admin', organization_id: ORG }, 'operator'],
      ['iat in the future', { token_use: 'operator', organization_id: ORG }, 'operator', { iat: now + 3600, exp: now + 3600 + 60 }],
      ['operator lifetime over 900 s', { token_use: 'operator', organization_id: ORG }, 'operator', { iat: now, exp: now + 901 }],
      ['scoped lifetime over 1200 s', { token_use: 'scoped', organization_id: ORG, ...scope }, 'scoped', { iat: now, exp: now + 86_400 }],
    ];
    for (const [name, claims, use, lifetime] of refused) {
      await expect(tokens.verify(await sign(claims, lifetime), use), name).rejects.toMatchObject({ status: 401, detail: 'Invalid authentication credentials' });
    }
  });

  it('reads a widget token issued before widget tokens had a kind of their own (scoped, with a widget claim) as a widget token', async () => {
    const legacy = await sign({ token_use: 'scoped', organization_id: ORG, ...scope, widget });
    await expect(tokens.verify(legacy, 'scoped')).rejects.toMatchObject({ status: 401 });
    await expect(tokens.verify(legacy, 'widget')).resolves.toMatchObject({ token_use: 'widget', widget });
  });
});
