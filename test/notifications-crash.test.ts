import got from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, bearer, createTestDatabase, DATA_KEYS, type TestDatabase } from './helpers/hosted-fixture.ts';
import { type ServerProcess, startServerProcess } from './helpers/server-process.ts';
import { WebhookReceiver } from './helpers/webhook-receiver.ts';

/**
 * At-least-once across a crash: a server killed (SIGKILL) after its webhook reached the receiver and
 * before it could mark it delivered sends it again once it starts again, with the same webhook-id and
 * body, so the receiver can tell the duplicate; nothing is lost, and it is then marked delivered.
 */
describe.each(BACKENDS)('notification delivery across a crash on %s', (backend) => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await database?.drop();
  });

  const start = async () => {
    const started = await startServerProcess({ ...database.env, PLUGBOARD_DATA_KEYS: DATA_KEYS });
    expect(started.url, started.output.stderr).not.toBeNull();
    return started;
  };

  it('a delivery cut off between sending and marking is sent again after the restart, with the same webhook-id', async () => {
    server = await start();
    const http = got.extend({ prefixUrl: server.url!, throwHttpErrors: false, retry: { limit: 0 } });
    const { access_token: token } = await http.post('v1/applications/token', { json: server.firstApplication! }).json<{ access_token: string }>();
    const call = async (method: 'post' | 'get', path: string, json?: unknown) => {
      const response = await http(path, { method: method.toUpperCase() as 'POST', headers: bearer(token), ...(json ? { json } : {}) });
      expect(response.statusCode, response.body).toBe(200);
      return JSON.parse(response.body);
    };
    const { workspaceId } = await call('post', 'v1/workspaces', {
      name: 'crashing',
      notifications: { failure: { webhook: { enabled: true, url: receiver.url('/crash') } } },
    });
    // The first request is the last thing the server does: it is killed before its answer comes.
    const crashed = server;
    receiver.onRequest = () => {
      receiver.onRequest = undefined;
      void crashed.kill('SIGKILL');
    };
    receiver.answer('/crash', { delayMs: 1000 });
    const { deliveryId } = await call('post', `v1/workspaces/${workspaceId}/notifications/test`, { event: 'failure' });
    await receiver.attemptsOf(deliveryId, 1);
    await crashed.kill('SIGKILL');

    server = await start();
    const [first, second] = await receiver.attemptsOf(deliveryId, 2, 60_000);
    expect(second!.body).toBe(first!.body);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    const again = got.extend({ prefixUrl: server.url!, throwHttpErrors: false });
    for (let i = 0; i < 100; i++) {
      const log = await again.get(`v1/workspaces/${workspaceId}/notifications/deliveries`, { headers: bearer(token) }).json<{ data: any[] }>();
      if (log.data[0]?.status === 'delivered') {
        expect(log.data).toHaveLength(1);
        expect(log.data[0]).toMatchObject({ deliveryId, status: 'delivered', attempts: 2 });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the delivery was not marked delivered after the restart');
  }, 180_000);
});
