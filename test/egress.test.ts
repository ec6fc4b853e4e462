import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILTIN_CONNECTORS } from '../connectors/builtin.ts';
import { ConfigurationError } from '../core/configuration-error.ts';
import { createRuntimeWith } from '../core/index.ts';
import { DeploymentUpstreams } from '../core/hosted/deployment-upstreams.ts';
import { refusedRangeOf } from '../core/security/egress/address-ranges.ts';
import { EgressPolicy } from '../core/security/egress/egress-policy.ts';
import type { RunningServer } from '../server/start.ts';
import { configFromEnv } from '../server/config.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { BACKENDS, bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { publicAccessToken } from './helpers/public-api-calls.ts';

/**
 * The egress policy, tried as an attacker would: every spelling of loopback in a declarative
 * manifest's base URL and a destination's host, a name that resolves to loopback, a redirect to it,
 * a destination that names the server's own PostgreSQL database by another name or user, and a
 * configuration stored under an open policy that a strict server refuses when it runs.
 */

const EXAMPLE = readFileSync(new URL('../docs/examples/declarative-source.yaml', import.meta.url), 'utf8');

describe('the egress policy', () => {
  it('refuses each non-public range by name, and opens what the allow list names', () => {
    const ranges: [string, string | undefined][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['::1', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['169.254.169.254', 'link-local (including the cloud metadata address)'],
      ['fe80::1', 'link-local (including the cloud metadata address)'],
      ['10.1.2.3', 'private'],
      ['172.31.0.1', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'private'],
      ['fd12:3456::1', 'unique-local'],
      ['224.0.0.251', 'multicast'],
      ['ff02::1', 'multicast'],
      ['240.0.0.1', 'reserved'],
      ['198.18.0.1', 'reserved'],
      ['203.0.113.7', 'reserved'],
      ['fec0::1', 'unique-local'],
      ['64:ff9b::a9fe:a9fe', 'IPv4-embedding IPv6'],
      ['2002:7f00:1::', 'IPv4-embedding IPv6'],
      ['::127.0.0.1', 'IPv4-embedding IPv6'],
      ['8.8.8.8', undefined],
      ['172.32.0.1', undefined],
      ['2001:4860:4860::8888', undefined],
    ];
    expect(ranges.map(([address]) => [address, refusedRangeOf(address)])).toEqual(ranges);

    const policy = EgressPolicy.fromSetting('10.0.0.0/8, db.internal:5432 [::1]:8080,127.0.0.1:9000 LocalHost');
    const refused = (host: string, address: string, port: number) => policy.refusalOf({ host, port }, address);
    expect(refused('10.9.9.9', '10.9.9.9', 1)).toBeUndefined();
    expect(refused('db.internal', '192.168.0.5', 5432)).toBeUndefined();
    expect(refused('db.internal', '192.168.0.5', 5433)).toBe('private');
    expect(refused('::1', '::1', 8080)).toBeUndefined();
    expect(refused('::1', '::1', 8081)).toBe('loopback');
    expect(refused('127.0.0.1', '127.0.0.1', 9000)).toBeUndefined();
    expect(refused('127.0.0.1', '127.0.0.1', 9001)).toBe('loopback');
    expect(refused('localhost', '127.0.0.1', 1)).toBeUndefined();
    expect(refused('other.name', '127.0.0.1', 9001)).toBe('loopback');
  });

  it('refuses to start on a malformed allow list, naming the entry', () => {
    for (const value of ['10.0.0.0/33', 'host:99999', 'not a/host', 'bad_@host']) {
      expect(() => configFromEnv({ PLUGBOARD_EGRESS_ALLOW: value }), value).toThrow(ConfigurationError);
    }
    expect(() => configFromEnv({ PLUGBOARD_EGRESS_ALLOW: '10.0.0.0/33' })).toThrow(/PLUGBOARD_EGRESS_ALLOW: "10.0.0.0\/33"/);
    expect(configFromEnv({}).egress.describe()).toMatch(
      /^egress policy: loopback, unspecified, link-local, private, .* addresses refused; PLUGBOARD_EGRESS_ALLOW opens nothing$/,
    );
  });

  describe('at connect time, for a connector instance under the policy', () => {
    let probe: Server;
    let probeHits = 0;
    let redirector: Server;
    const urlOf = (server: Server, host: string) => `http://${host}:${(server.address() as AddressInfo).port}`;

    beforeAll(async () => {
      probe = createServer((request, response) => {
        probeHits++;
        lastAuthorization = request.headers.authorization;
        response.setHeader('content-type', 'application/json');
        response.end('{"ok":true,"members":[]}');
      });
      redirector = createServer((request, response) => {
        response.writeHead(302, { location: `${urlOf(probe, '127.0.0.1')}${request.url}` });
        response.end();
      });
      await Promise.all([probe, redirector].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
    });
    afterAll(() => {
      probe.close();
      redirector.close();
    });

    let lastAuthorization: string | undefined;

    const listUsers = async (baseUrl: string, policy: EgressPolicy) => {
      const runtime = await createRuntimeWith(BUILTIN_CONNECTORS);
      const chat = runtime.connector('chat', { credentials: { token: CHAT_TOKEN }, base_url: baseUrl, egress: policy });
      return chat.execute({ entity: 'users', action: 'list', params: {} }).then(
        () => 'reached',
        (error: { status?: number; error_code?: string; message: string }) => [error.status, error.error_code, error.message],
      );
    };

    it('refuses every spelling of loopback, and a name that resolves to it, without a byte sent', async () => {
      const strict = new EgressPolicy();
      const port = (probe.address() as AddressInfo).port;
      for (const host of ['127.0.0.1', 'localhost', '0x7f000001', '127.1', '2130706433', '[::1]', '[::ffff:127.0.0.1]']) {
        const answer = await listUsers(`http://${host}:${port}`, strict);
        expect(answer, host).toEqual([400, 'egress_refused', expect.stringMatching(/are refused: a loopback address/)]);
      }
      expect(probeHits).toBe(0);
      // The same instance, the probe opened: it is reached, so the refusals above were the policy's.
      expect(await listUsers(urlOf(probe, '127.0.0.1'), EgressPolicy.fromSetting(`127.0.0.1:${port}`))).toBe('reached');
      expect(probeHits).toBe(1);
    });

    it('sends no credentials along a redirect to another origin', async () => {
      const both = EgressPolicy.fromSetting(`127.0.0.1:${(redirector.address() as AddressInfo).port} 127.0.0.1:${(probe.address() as AddressInfo).port}`);
      expect(await listUsers(urlOf(redirector, '127.0.0.1'), both)).toBe('reached');
      expect(lastAuthorization).toBeUndefined();
    });

    it('judges a redirect from an operator-configured upstream too: only its own host and port are opened', async () => {
      const hits = probeHits;
      const upstreams = new DeploymentUpstreams({ chat: urlOf(redirector, '127.0.0.1') });
      const runtime = await createRuntimeWith(BUILTIN_CONNECTORS);
      const chat = runtime.connector('chat', upstreams.instanceConfig('chat', { token: CHAT_TOKEN }));
      const answer = await chat.execute({ entity: 'users', action: 'list', params: {} }).catch((error: { error_code?: string }) => error.error_code);
      expect(answer).toBe('egress_refused');
      expect(probeHits).toBe(hits);
    });

    it('judges a redirect as a connection of its own', async () => {
      const hits = probeHits;
      const onlyRedirector = EgressPolicy.fromSetting(`127.0.0.1:${(redirector.address() as AddressInfo).port}`);
      const answer = await listUsers(urlOf(redirector, '127.0.0.1'), onlyRedirector);
      expect(answer).toEqual([400, 'egress_refused', expect.stringMatching(/are refused: a loopback address/)]);
      expect(probeHits).toBe(hits);
    });
  });
});

describe.each(BACKENDS)('egress of a hosted server on %s', (backend) => {
  /** The fixture's server opens loopback (its sandboxes and PostgreSQL are there); `strict` opens nothing. */
  let fx: HostedFixture;
  let strict: RunningServer;
  let token: string;
  let workspaceId: string;

  const send = async (server: { url: string }, method: 'post' | 'put' | 'patch', path: string, body: unknown) => {
    const response = await fx.http(`${server.url}/v1${path}`, { prefixUrl: '', method: method.toUpperCase() as 'POST', headers: bearer(token), json: body });
    return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, any> };
  };
  const manifestAt = (baseUrl: string, type = 'team-members') => ({ ...(parse(EXAMPLE) as Record<string, unknown>), type, defaultBaseUrl: baseUrl });
  const definitions = () => `/workspaces/${workspaceId}/definitions/declarative_sources`;
  const refusal = (answer: { status: number; body: Record<string, any> }) => [answer.status, answer.body.type, answer.body.detail];

  beforeAll(async () => {
    fx = await startHostedFixture(backend);
    strict = await fx.startAnotherServer({ egress: new EgressPolicy() });
    token = await publicAccessToken(fx);
    workspaceId = (await send(fx.server, 'post', '/workspaces', { name: 'egress' })).body.workspaceId;
  });
  afterAll(async () => {
    await fx?.close();
  });

  it("refuses a declarative manifest's base URL on loopback, however spelt, at creation and on update", async () => {
    const requests = fx.chatSandbox.requests.length;
    const port = new URL(fx.chatSandbox.url).port;
    for (const host of ['127.0.0.1', 'localhost', '0x7f000001', '127.1', '[::1]', '169.254.169.254', '10.0.0.1']) {
      const answer = await send(strict, 'post', definitions(), { name: 'attack', manifest: manifestAt(`http://${host}:${port}`) });
      expect(refusal(answer), host).toEqual([
        400,
        'urn:plugboard:error:egress_refused',
        expect.stringMatching(/^manifest\.defaultBaseUrl: connections to .* are refused: a /),
      ]);
    }
    const published = await send(strict, 'post', definitions(), { name: 'public', manifest: manifestAt('https://93.184.215.14/api') });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const updated = await send(strict, 'put', `${definitions()}/${published.body.id}`, { manifest: manifestAt(fx.chatSandbox.url) });
    expect(refusal(updated)).toEqual([400, 'urn:plugboard:error:egress_refused', expect.stringMatching(/a loopback address/)]);
    expect(fx.chatSandbox.requests.length).toBe(requests);
  });

  it('refuses at run time what was stored under an open policy: no request reaches the sandbox', async () => {
    const published = await send(fx.server, 'post', definitions(), { name: 'sandbox', manifest: manifestAt(fx.chatSandbox.url, 'sandbox-members') });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const source = await send(fx.server, 'post', '/sources', {
      name: 'members',
      workspaceId,
      definitionId: published.body.id,
      configuration: { credentials: { token: CHAT_TOKEN } },
    });
    expect(source.status, JSON.stringify(source.body)).toBe(200);
    const requests = fx.chatSandbox.requests.length;
    const response = await fx.http(`${strict.url}/api/v1/sources/check_connection`, {
      prefixUrl: '',
      method: 'POST',
      headers: bearer(token),
      json: { sourceId: source.body.sourceId },
    });
    const checked = JSON.parse(response.body) as { status: string; message: string };
    expect([response.statusCode, checked.status]).toEqual([200, 'failed']);
    expect(checked.message).toMatch(/are refused: a loopback address/);
    expect(fx.chatSandbox.requests.length).toBe(requests);
  });

  it('refuses a PostgreSQL destination on loopback, however named, with the field and the rule', async () => {
    // An empty or malformed host must not fall back to the client's default (localhost).
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '169.254.169.254', '[]', '[', ']', ' ', '64:ff9b::a9fe:a9fe']) {
      const configuration = { destinationType: 'postgres', host, port: 5432, database: 'test', username: 'postgres', password: 'x' };
      const answer = await send(strict, 'post', '/destinations', { name: 'attack', workspaceId, configuration });
      expect(refusal(answer), host).toEqual([
        400,
        'urn:plugboard:error:egress_refused',
        expect.stringMatching(/^configuration\.host: connections to .* are refused: an? /),
      ]);
    }
  });

  describe.runIf(backend === 'postgres')("the server's own database", () => {
    const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
    const own = { destinationType: 'postgres', port: Number(url.port || 5432), database: url.pathname.slice(1), schema: 'public' };
    const role = `egress_${Date.now().toString(36)}`;
    const otherDatabase = `egress_other_${Date.now().toString(36)}`;
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: url.href });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };

    it('is never a destination, by host name, address, another user or another schema', async () => {
      await admin(`CREATE ROLE ${role} LOGIN PASSWORD 'attacker-pw'`);
      await admin(`GRANT CONNECT, CREATE ON DATABASE ${own.database} TO ${role}`);
      await admin(`CREATE DATABASE ${otherDatabase}`);
      try {
        await tryTakeovers();
      } finally {
        await admin(`DROP DATABASE IF EXISTS ${otherDatabase}`);
        await admin(`REVOKE ALL ON DATABASE ${own.database} FROM ${role}`);
        await admin(`DROP ROLE IF EXISTS ${role}`);
      }
    });

    async function tryTakeovers() {
      const attempts = [
        { host: 'localhost', username: 'postgres' },
        { host: '127.0.0.1', username: 'postgres' },
        { host: '127.0.0.1', username: role, password: 'attacker-pw' },
        { host: 'LocalHost', username: 'postgres', schema: 'attacker' },
      ];
      for (const attempt of attempts) {
        const answer = await send(fx.server, 'post', '/destinations', { name: 'takeover', workspaceId, configuration: { ...own, ...attempt } });
        expect(refusal(answer), JSON.stringify(attempt)).toEqual([
          400,
          'urn:plugboard:error:egress_refused',
          expect.stringMatching(/is this server's own database, which is never a destination/),
        ]);
      }
      // [::1] is refused too: as the server's own database where PostgreSQL listens there, else as unreachable.
      const v6 = await send(fx.server, 'post', '/destinations', {
        name: 'takeover',
        workspaceId,
        configuration: { ...own, host: '[::1]', username: 'postgres' },
      });
      expect(v6.status).toBe(400);
      expect(['urn:plugboard:error:egress_refused', 'urn:plugboard:error:destination_check_failed']).toContain(v6.body.type);
      // The same cluster's other database is a destination like any other.
      const other = await send(fx.server, 'post', '/destinations', {
        name: 'warehouse',
        workspaceId,
        configuration: { ...own, host: '127.0.0.1', username: 'postgres', database: otherDatabase },
      });
      expect(other.status, JSON.stringify(other.body)).toBe(200);
      // Nor can an existing destination be moved onto it.
      const moved = await send(fx.server, 'patch', `/destinations/${other.body.destinationId}`, { configuration: { database: own.database } });
      expect(refusal(moved)).toEqual([400, 'urn:plugboard:error:egress_refused', expect.stringMatching(/own database/)]);
      // The signing keys are still there: tokens are still issued.
      expect(await publicAccessToken(fx)).toEqual(expect.any(String));
    }
  });
});
