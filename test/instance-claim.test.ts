import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claimInstance } from '../core/hosted/jobs/instance-claim.ts';

/**
 * A start takes over its earlier runs' jobs only when no other live process goes by its instance id:
 * a second claim of a held id is refused (that process then waits for leases, as any other would),
 * and a claim whose holder is gone (released, or its process dead) is taken.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'plugboard-claim-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Store = [name: string, options: { databaseUrl?: string }];
const STORES: Store[] = [
  ['a lock file (SQLite)', {}],
  ...(TEST_DATABASE_URL ? [['an advisory lock (PostgreSQL)', { databaseUrl: TEST_DATABASE_URL }] as Store] : []),
];

describe.each(STORES)('claiming an instance id with %s', (_name, store) => {
  const options = { dataDir, ...store };

  it('is held by one live process at a time, and free again once released', async () => {
    const id = `claim-${Math.random().toString(36).slice(2)}`;
    const first = await claimInstance(id, options);
    const second = await claimInstance(id, options);
    expect([first.held, second.held]).toEqual([true, false]);
    expect((await claimInstance(`${id}-other`, options)).held).toBe(true);
    await first.release();
    const third = await claimInstance(id, options);
    expect(third.held).toBe(true);
    await third.release();
  });
});

describe('the SQLite lock file', () => {
  const file = (id: string) => join(dataDir, `instance-${id}.lock`);

  it("is taken over when its process is gone, and kept when it is alive or another host's", async () => {
    writeFileSync(file('dead-holder'), `${hostname()} 2147483646 old-run\n`);
    const claim = await claimInstance('dead-holder', { dataDir });
    expect(claim.held).toBe(true);
    expect(readFileSync(file('dead-holder'), 'utf8')).toBe(`${hostname()} ${process.pid} dead-holder\n`);
    await claim.release();
    writeFileSync(file('other-host'), `another-host.example 1 its-run\n`);
    expect((await claimInstance('other-host', { dataDir })).held).toBe(false);
  });
});
