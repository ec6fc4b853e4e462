/**
 * An upstream that cannot be reached is named: the origin that was tried and what sets it, so a
 * newcomer whose server has no PLUGBOARD_CHAT_BASE_URL (or an app with a wrong base_url) knows what to fix.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createRuntime, type PlugboardError } from '../index.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { bearer, startHostedFixture } from './helpers/hosted-fixture.ts';

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('an unreachable upstream', () => {
  it('in-process: names the origin tried and base_url', async () => {
    const port = await closedPort();
    const runtime = await createRuntime();
    const chat = runtime.connector('chat', { credentials: { token: 'xoxb-unreachable' }, base_url: `http://127.0.0.1:${port}/api?key=hidden` });
    const error = (await chat.users.list({}).catch((caught: unknown) => caught)) as PlugboardError;
    expect([error.status, error.error_code]).toEqual([502, 'upstream_econnrefused']);
    expect(error.detail).toBe(`Upstream request to http://127.0.0.1:${port} failed: network error (ECONNREFUSED); the API root is set by base_url`);
  });

  it('hosted: names the origin tried and the PLUGBOARD_<TYPE>_BASE_URL variable, in the answer and the log', async () => {
    const port = await closedPort();
    const fx = await startHostedFixture('sqlite', { config: { baseUrls: () => ({ chat: `http://127.0.0.1:${port}/api` }) } });
    try {
      const token = await fx.scopedToken('unreachable');
      const created = await fx.http.post('v1/integrations/connectors', {
        headers: bearer(token),
        json: { external_user_id: 'u', connector_type: 'chat', credentials: { token: CHAT_TOKEN } },
      });
      expect(created.statusCode).toBe(502);
      const detail = JSON.parse(created.body).detail as string;
      expect(detail).toContain(`http://127.0.0.1:${port}`);
      expect(detail).toContain('PLUGBOARD_CHAT_BASE_URL');
      expect(fx.logs.join('')).toContain('PLUGBOARD_CHAT_BASE_URL');
    } finally {
      await fx.close();
    }
  }, 60_000);
});
