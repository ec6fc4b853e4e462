/**
 * OAuthTokens keeps a credential's renewed tokens only while the credential is stored: a renewal
 * still in flight when its connector or source is deleted (a replication or sync reading at the
 * time) leaves no sealed tokens behind.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateOAuth } from '../core/hosted/oauth/migrate-oauth.ts';
import { credentialKeys, OAuthTokens } from '../core/hosted/oauth/oauth-tokens.ts';
import { DataKeyring } from '../core/security/data-keyring.ts';
import { SqliteDriver } from '../core/stores/sqlite-driver.ts';

describe('OAuthTokens and deleted credentials', () => {
  let dir: string;
  let db: SqliteDriver;
  const deleted = new Set<string>();
  let tokens: OAuthTokens;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plugboard-oauth-tokens-'));
    db = new SqliteDriver(dir);
    await migrateOAuth(db);
    tokens = new OAuthTokens(db, new DataKeyring([{ id: 'k1', key: randomBytes(32) }]), undefined, {
      connector: async (id) => !deleted.has(credentialKeys.connector(id)),
      source: async (id) => !deleted.has(credentialKeys.source(id)),
    });
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rows = async (key: string) => (await db.all('SELECT credential_key FROM oauth_tokens WHERE credential_key = ?', [key])).length;
  const initial = { accessToken: 'access-0', refreshToken: 'refresh-0' };
  const renewed = { accessToken: 'access-1', refreshToken: 'refresh-1' };

  it('a renewal of a credential still stored is kept', async () => {
    const key = credentialKeys.connector('kept');
    expect(await tokens.keeper(key, 'refresh-0', initial).renew('access-0', async () => renewed)).toEqual(renewed);
    expect((await tokens.kept(key, 'refresh-0'))?.state).toEqual(renewed);
  });

  for (const [kind, key] of [
    ['connector', credentialKeys.connector('gone')],
    ['source', credentialKeys.source('gone')],
  ] as const) {
    it(`a renewal that finishes after its ${kind} was deleted keeps nothing, and still answers the call in flight`, async () => {
      const answer = await tokens.keeper(key, 'refresh-0', initial).renew('access-0', async () => {
        // The delete happens while the provider is asked: the credential first, then what was kept of it.
        deleted.add(key);
        await tokens.forget(key);
        return renewed;
      });
      expect(answer).toEqual(renewed);
      expect(await rows(key)).toBe(0);
    });
  }
});
