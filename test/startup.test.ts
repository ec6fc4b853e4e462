/**
 * What a start refuses and what it sets up, as separate processes (`npm start`, `npm run admin`): a
 * setting, database, data directory or address the server cannot use ends the process with exit code 1
 * and one line on stderr, no stack trace and no password; the data directory it uses is private to its
 * user (0700, files 0600), an older install's included.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { DATA_KEYS } from './helpers/hosted-fixture.ts';
import { runScript, startServerProcess, type ProcessResult, type ServerProcess } from './helpers/server-process.ts';

/** Put in every URL the tests refuse: it must never be printed. */
const PASSWORD = 'never-printed-7c1e';
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plugboard-startup-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const instance = await startServerProcess(env);
  cleanups.push(() => instance.stop());
  return instance;
}

/** Exit code 1 and a single line on stderr: `prefix`, then a message matching `message`, without the password. */
function expectOneLineRefusal(result: ProcessResult, prefix: string, message: RegExp): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr.split('\n'), result.stderr).toEqual([expect.stringMatching(new RegExp(`^${prefix}`)), '']);
  expect(result.stderr.slice(prefix.length, -1)).toMatch(message);
  expect(result.stderr).not.toContain(PASSWORD);
}

async function expectStartRefused(env: Record<string, string>, message: RegExp): Promise<void> {
  const refused = await start(env);
  expect(refused.url, refused.output.stdout).toBeNull();
  expectOneLineRefusal({ code: refused.exitCode, ...refused.output }, 'Plugboard did not start: ', message);
}

/** TEST_DATABASE_URL with some of its parts changed, and the password set (the test server trusts, so it is ignored). */
function testDatabaseUrl(change: (url: URL) => void): string {
  const url = new URL(TEST_DATABASE_URL!);
  url.password = PASSWORD;
  change(url);
  return url.toString();
}

describe('start-up refusals', () => {
  it.each([
    [`mysql://root:${PASSWORD}@127.0.0.1:3306/plugboard`, /its scheme is "mysql:"/],
    [`sqlite:./${PASSWORD}.db`, /its scheme is "sqlite:"/],
    [`${PASSWORD} is not a URL`, /it has no scheme/],
  ])('DATABASE_URL %s is refused before anything is touched', async (databaseUrl, scheme) => {
    const dataDir = join(tempDir(), 'data');
    await expectStartRefused(
      { DATABASE_URL: databaseUrl, PLUGBOARD_DATA_DIR: dataDir, PLUGBOARD_DATA_KEYS: DATA_KEYS },
      new RegExp(`^DATABASE_URL must be a postgres:// or postgresql:// URL \\(${scheme.source}\\)`),
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it('a database nobody listens at is refused, naming host:port, role and database', async () => {
    await expectStartRefused(
      { DATABASE_URL: `postgres://plugboard:${PASSWORD}@127.0.0.1:1/plugboard`, PLUGBOARD_DATA_KEYS: DATA_KEYS },
      /^cannot connect to PostgreSQL at 127\.0\.0\.1:1 as role "plugboard", database "plugboard": connection refused/,
    );
  });

  it('a database host that does not exist is refused', async () => {
    await expectStartRefused(
      { DATABASE_URL: `postgresql://plugboard:${PASSWORD}@no-such-host.invalid/plugboard`, PLUGBOARD_DATA_KEYS: DATA_KEYS },
      /^cannot connect to PostgreSQL at no-such-host\.invalid:5432 as role "plugboard", database "plugboard": (unknown host|the host name could not be resolved)/,
    );
  });

  describe.runIf(TEST_DATABASE_URL)('on a PostgreSQL server that answers', () => {
    it('a role that does not exist is refused', async () => {
      const databaseUrl = testDatabaseUrl((url) => (url.username = 'plugboard_no_such_role'));
      await expectStartRefused(
        { DATABASE_URL: databaseUrl, PLUGBOARD_DATA_KEYS: DATA_KEYS },
        /as role "plugboard_no_such_role".*: role "plugboard_no_such_role" does not exist$/,
      );
    });

    it('a database that does not exist is refused', async () => {
      const databaseUrl = testDatabaseUrl((url) => (url.pathname = '/plugboard_no_such_database'));
      await expectStartRefused({ DATABASE_URL: databaseUrl, PLUGBOARD_DATA_KEYS: DATA_KEYS }, /: database "plugboard_no_such_database" does not exist$/);
    });

    /**
     * A start as a new login role on its own schema (`schemaSql` makes the schema and its grants,
     * `<name>` standing for the role), refused with `refusal`; role and schemas dropped afterwards.
     */
    async function expectRoleRefused(schemaSql: string[], refusal: RegExp): Promise<void> {
      const name = `plugboard_test_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      try {
        await admin.query(`CREATE ROLE ${name} LOGIN`);
        for (const statement of schemaSql) await admin.query(statement.replaceAll('<name>', name));
        const databaseUrl = testDatabaseUrl((url) => {
          url.username = name;
          url.searchParams.set('options', `-c search_path=${name}`);
        });
        await expectStartRefused({ DATABASE_URL: databaseUrl, PLUGBOARD_DATA_KEYS: DATA_KEYS }, refusal);
      } finally {
        await admin.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
        await admin.query(`DROP SCHEMA IF EXISTS ${name}_jobs CASCADE`);
        await admin.query(`DROP OWNED BY ${name}`);
        await admin.query(`DROP ROLE IF EXISTS ${name}`);
        await admin.end();
      }
    }

    it('a role that may not create tables is refused, saying so', async () => {
      await expectRoleRefused(
        ['CREATE SCHEMA <name>', 'GRANT USAGE ON SCHEMA <name> TO <name>'],
        /^PostgreSQL refused the schema migration: permission denied for schema/,
      );
    });

    it("a role that may create tables but not the job queues' schema is refused, saying so", async () => {
      await expectRoleRefused(['CREATE SCHEMA <name> AUTHORIZATION <name>'], /^PostgreSQL refused the job queues' schema: permission denied for database/);
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT must be an integer from 0 to 65535, got "eighty"$/],
    [{ PORT: '70000' }, /^PORT must be an integer from 0 to 65535/],
    [{ PLUGBOARD_HEADERS_TIMEOUT_SECONDS: '0' }, /^PLUGBOARD_HEADERS_TIMEOUT_SECONDS must be an integer of at least 1, got "0"$/],
    [{ PLUGBOARD_REQUEST_TIMEOUT_SECONDS: '2.5' }, /^PLUGBOARD_REQUEST_TIMEOUT_SECONDS must be an integer of at least 1/],
    [{ PLUGBOARD_MAX_CONNECTIONS: 'lots' }, /^PLUGBOARD_MAX_CONNECTIONS must be an integer of at least 1/],
    [{ PLUGBOARD_BODY_LIMIT_BYTES: '-1' }, /^PLUGBOARD_BODY_LIMIT_BYTES must be an integer of at least 1/],
    [
      { PLUGBOARD_HEADERS_TIMEOUT_SECONDS: '20', PLUGBOARD_REQUEST_TIMEOUT_SECONDS: '10' },
      /^PLUGBOARD_HEADERS_TIMEOUT_SECONDS \(20\) must not exceed PLUGBOARD_REQUEST_TIMEOUT_SECONDS \(10\)$/,
    ],
    [
      { PLUGBOARD_PUBLIC_URL: 'plugboard.example.com' },
      /^PLUGBOARD_PUBLIC_URL must be an absolute http:\/\/ or https:\/\/ URL, got "plugboard\.example\.com"$/,
    ],
    [{ PLUGBOARD_PUBLIC_URL: 'https://plugboard.example.com/?tenant=1' }, /^PLUGBOARD_PUBLIC_URL must not have a query or fragment/],
    [{ PLUGBOARD_CHAT_BASE_URL: 'slack.com/api' }, /^PLUGBOARD_CHAT_BASE_URL must be an absolute http:\/\/ or https:\/\/ URL/],
  ])('the setting %o is refused, naming the variable', async (settings, message) => {
    await expectStartRefused({ PLUGBOARD_DATA_DIR: join(tempDir(), 'data'), ...settings }, message);
  });

  it.each([
    ['the data keys generated there', {}],
    ['PLUGBOARD_DATA_KEYS', { PLUGBOARD_DATA_KEYS: DATA_KEYS }],
  ])('a data directory that cannot be made is refused (with %s)', async (_keys, keys) => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    await expectStartRefused(
      { PLUGBOARD_DATA_DIR: join(file, 'data'), ...keys },
      /^the data directory \(PLUGBOARD_DATA_DIR\) cannot be used: .*a-file\/data: part of the path is a file, not a directory$/,
    );
  });

  it('a data directory whose plugboard.db is not an SQLite database is refused', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'plugboard.db'), 'x'.repeat(4096));
    await expectStartRefused({ PLUGBOARD_DATA_DIR: dataDir }, /^cannot use the SQLite database .*plugboard\.db: file is not a database$/);
  });

  it('an address in use is refused, and the next start of that empty install still prints its first credentials', async () => {
    const occupier = createServer();
    await new Promise<void>((resolve) => occupier.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => occupier.close(resolve)));
    const { port } = occupier.address() as { port: number };
    const dataDir = join(tempDir(), 'data');
    await expectStartRefused(
      { PLUGBOARD_DATA_DIR: dataDir, PORT: String(port) },
      new RegExp(`^cannot listen on 127\\.0\\.0\\.1:${port}: the address is in use`),
    );
    // The refused start made no application whose secret nobody saw: this one makes it, and prints it.
    const next = await start({ PLUGBOARD_DATA_DIR: dataDir });
    expect(next.url, next.output.stderr).not.toBeNull();
    expect(next.firstApplication, next.output.stdout).toEqual({
      organization_id: expect.any(String),
      client_id: expect.any(String),
      client_secret: expect.any(String),
    });
  });

  it('prints the egress policy in force, and refuses a malformed allow list naming its entry', async () => {
    const dataDir = join(tempDir(), 'data');
    const started = await start({ PLUGBOARD_DATA_DIR: dataDir, PLUGBOARD_EGRESS_ALLOW: '10.0.0.0/8, db.internal:5432' });
    expect(started.url, started.output.stderr).not.toBeNull();
    expect(started.output.stdout).toContain(
      'egress policy: loopback, unspecified, link-local, private, unique-local, IPv4-embedding IPv6, multicast, reserved addresses refused; PLUGBOARD_EGRESS_ALLOW opens 10.0.0.0/8, db.internal:5432.',
    );
    await expectStartRefused(
      { PLUGBOARD_DATA_DIR: dataDir, PLUGBOARD_EGRESS_ALLOW: '10.0.0.0/40' },
      /^PLUGBOARD_EGRESS_ALLOW: "10\.0\.0\.0\/40" is not a CIDR range$/,
    );
  });

  it('the admin CLI refuses the same way, with its own prefix', async () => {
    const run = await runScript(['scripts/admin.ts', 'rotate-signing-key'], {
      DATABASE_URL: `mysql://root:${PASSWORD}@127.0.0.1/plugboard`,
      PLUGBOARD_DATA_KEYS: DATA_KEYS,
    });
    expectOneLineRefusal(run, 'admin: ', /^DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(run.stdout).toBe('');
  });
});

/** Whether this machine has IPv6 loopback (some containers do not). */
const IPV6 = await new Promise<boolean>((resolve) => {
  const probe = createServer();
  probe.once('error', () => resolve(false));
  probe.listen(0, '::1', () => probe.close(() => resolve(true)));
});

describe('the address', () => {
  it.runIf(IPV6)('HOST=::1 without PLUGBOARD_PUBLIC_URL: the printed URL and the widget URL have the host in brackets', async () => {
    const instance = await start({ PLUGBOARD_DATA_DIR: join(tempDir(), 'data'), HOST: '::1' });
    expect(instance.url, instance.output.stderr).toMatch(/^http:\/\/\[::1\]:\d+$/);
    const { client_id, client_secret } = instance.firstApplication!;
    const operator = await fetch(`${instance.url}/api/v1/account/applications/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id, client_secret }),
    });
    const { access_token } = (await operator.json()) as { access_token: string };
    const widget = await fetch(`${instance.url}/api/v1/embedded/widget-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ workspace_name: 'ipv6', allowed_origin: 'https://app.example.com' }),
    });
    expect(widget.status, await widget.clone().text()).toBe(200);
    const { widgetUrl } = JSON.parse(Buffer.from(((await widget.json()) as { token: string }).token, 'base64').toString()) as { widgetUrl: string };
    expect(widgetUrl).toMatch(/^http:\/\/\[::1\]:\d+\/embedded-widget\?/);
  });
});

describe('the data directory', () => {
  const mode = (path: string) => statSync(path).mode & 0o777;

  function expectPrivate(dataDir: string): void {
    expect(mode(dataDir).toString(8)).toBe('700');
    const files = readdirSync(dataDir);
    expect(files).toEqual(expect.arrayContaining(['plugboard.db', 'data-keys.json']));
    for (const file of files) expect([file, mode(join(dataDir, file)).toString(8)]).toEqual([file, '600']);
  }

  it('a fresh one is made 0700, the database and key files in it 0600', async () => {
    const dataDir = join(tempDir(), 'data');
    const instance = await start({ PLUGBOARD_DATA_DIR: dataDir });
    expect(instance.url, instance.output.stderr).not.toBeNull();
    expectPrivate(dataDir);
  });

  it("an older install's (0755, files 0644, a crash's -wal and -shm left over) is narrowed at start", async () => {
    const dataDir = join(tempDir(), 'data');
    const first = await start({ PLUGBOARD_DATA_DIR: dataDir });
    expect(first.url, first.output.stderr).not.toBeNull();
    await first.stop();
    for (const leftover of ['plugboard.db-wal', 'plugboard.db-shm']) writeFileSync(join(dataDir, leftover), '');
    chmodSync(dataDir, 0o755);
    for (const file of readdirSync(dataDir)) chmodSync(join(dataDir, file), 0o644);
    const again = await start({ PLUGBOARD_DATA_DIR: dataDir });
    expect(again.url, again.output.stderr).not.toBeNull();
    expectPrivate(dataDir);
  });

  it("a directory holding anything but Plugboard's files (PLUGBOARD_DATA_DIR=., a shared one) keeps its mode; its Plugboard files are still 0600", async () => {
    const dataDir = join(tempDir(), 'shared');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'notes.txt'), '');
    chmodSync(dataDir, 0o755);
    const instance = await start({ PLUGBOARD_DATA_DIR: dataDir });
    expect(instance.url, instance.output.stderr).not.toBeNull();
    expect(mode(dataDir).toString(8)).toBe('755');
    for (const file of ['plugboard.db', 'data-keys.json']) expect([file, mode(join(dataDir, file)).toString(8)]).toEqual([file, '600']);
  });

  it('an existing but empty one is narrowed too', async () => {
    const dataDir = join(tempDir(), 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const instance = await start({ PLUGBOARD_DATA_DIR: dataDir });
    expect(instance.url, instance.output.stderr).not.toBeNull();
    expectPrivate(dataDir);
  });
});

describe('what a start loads', () => {
  it.runIf(existsSync('/proc/self/maps'))("a server that writes no DuckDB file has not loaded DuckDB's library (its memory is spared)", async () => {
    const instance = await start({ PLUGBOARD_DATA_DIR: join(tempDir(), 'data') });
    expect(instance.url, instance.output.stderr).not.toBeNull();
    const mapped = readFileSync(`/proc/${instance.pid}/maps`, 'utf8');
    expect(mapped).toContain('better_sqlite3.node');
    expect(mapped).not.toMatch(/duckdb/i);
  });
});
