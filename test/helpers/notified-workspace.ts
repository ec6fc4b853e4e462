import { expect } from 'vitest';
import type { NotificationSettings } from '../../core/hosted/notifications/notification-settings.ts';
import { workspaceDataDir } from '../../core/hosted/sync/destinations/create-destination.ts';
import { slackSourceConfiguration } from './chat-fixture.ts';
import { type Backend, type HostedFixture, startHostedFixture } from './hosted-fixture.ts';
import { type Answer, HostedConformance, recordAnswer } from './hosted-openapi.ts';
import { plainPublicApi } from './public-api-calls.ts';
import { testDestination, type TestDestination } from './sync-destinations.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

/**
 * A server with notification settings of the test's, a webhook receiver, and a workspace (with the
 * chat sandbox as a source) whose connections to SQLite the tests sync.
 */
export interface NotifiedWorkspace {
  fx: HostedFixture;
  receiver: WebhookReceiver;
  api: Awaited<ReturnType<typeof plainPublicApi>>;
  /** Every answer the server gave through fx.http, for recordedAnswersConform. */
  answers: Answer[];
  workspaceId: string;
  sourceId: string;
  /** A connection of the source's `streams` to a new SQLite destination named `db`. */
  connection(name: string, streams: Array<{ name: string; syncMode: string }>): Promise<string>;
  /** The delivery's log entry once it is no longer pending. */
  settled(deliveryId: string): Promise<any>;
  close(): Promise<void>;
}

export async function startNotifiedWorkspace(
  backend: Backend,
  settings: NotificationSettings,
  workspace: { name: string; notifications?: (receiver: WebhookReceiver) => Record<string, unknown> },
): Promise<NotifiedWorkspace> {
  const receiver = await WebhookReceiver.start();
  const fx = await startHostedFixture(backend, { config: { notifications: settings } });
  const answers: Answer[] = [];
  fx.http = fx.http.extend({ hooks: { afterResponse: [recordAnswer(answers)] } });
  const api = await plainPublicApi(fx);
  const notifications = workspace.notifications?.(receiver);
  const { workspaceId } = await api.call('post', 'v1/workspaces', { name: workspace.name, ...(notifications ? { notifications } : {}) });
  const { sourceId } = await api.call('post', 'v1/sources', { name: 'team slack', workspaceId, configuration: slackSourceConfiguration() });
  const destinations: TestDestination[] = [];
  return {
    fx,
    receiver,
    api,
    answers,
    workspaceId,
    sourceId,
    async connection(name, streams) {
      const destination = await testDestination('sqlite', workspaceDataDir(fx.dataDir, workspaceId));
      destinations.push(destination);
      const { destinationId } = await api.call('post', 'v1/destinations', { name: 'db', workspaceId, configuration: destination.configuration });
      return (await api.call('post', 'v1/connections', { sourceId, destinationId, name, configurations: { streams } })).connectionId;
    },
    async settled(deliveryId) {
      for (let i = 0; i < 300; i++) {
        const log = await api.call('get', `v1/workspaces/${workspaceId}/notifications/deliveries?limit=100`);
        const entry = log.data.find((candidate: { deliveryId: string }) => candidate.deliveryId === deliveryId);
        if (entry && entry.status !== 'pending') return entry;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`delivery ${deliveryId} still pending`);
    },
    async close() {
      await fx.close();
      await receiver.close();
      for (const destination of destinations) await destination.drop();
    },
  };
}

/**
 * Every answer recorded is one /openapi.json declares, with a body on its schema, and every
 * notifications operation whose path has `under` (its /v1 or /api/v1 form) answered a 2xx at least once.
 */
export async function recordedAnswersConform(fx: HostedFixture, answers: Answer[], under: string): Promise<void> {
  const conformance = new HostedConformance(await fx.http.get('openapi.json').json());
  expect([...new Set(answers.map((answer) => conformance.problemWith(answer)).filter((problem) => problem !== undefined))]).toEqual([]);
  const succeeded = new Set(answers.filter((answer) => answer.status < 300).map((answer) => conformance.operationOf(answer)));
  const own = conformance.operationKeys({ tagged: 'notifications' }).filter((key) => key.includes(under) && !key.includes('/api/public/'));
  expect(own.length).toBeGreaterThan(0);
  expect(own.filter((key) => !succeeded.has(key))).toEqual([]);
}
