import { createServer, type Server } from 'node:http';
import { FaultQueue } from './faults.ts';
import { generateSeed } from './seed.ts';
import { createRequestHandler } from './server.ts';
import { SandboxStore } from './store.ts';
import type { SandboxData, SandboxFault, SandboxRequestLogEntry, SlackSandboxOptions } from './types.ts';
import { listen } from '../../../testing/index.ts';

export type {
  ArgForm,
  ConversationType,
  SandboxBotInfo,
  SandboxChannel,
  SandboxData,
  SandboxFault,
  SandboxMessage,
  SandboxRequestLogEntry,
  SandboxTeam,
  SlackReaction,
  SlackSandboxOptions,
  SlackUser,
  SlackUserProfile,
  TopicValue,
} from './types.ts';
export { BASE_EPOCH } from './seed.ts';

/**
 * A local emulator of the Slack Web API (15 methods) over plain HTTP, backed by deterministic seeded
 * data, with fault injection for rate limits and server errors.
 */
export class SlackSandbox {
  /** API root, e.g. http://127.0.0.1:4010/api; callers append /<method>. */
  readonly url: string;
  /** The bot user the token belongs to. */
  readonly botUserId: string;
  /** Every /api request received, in order, faulted ones included (none when `recordRequests` is false). */
  readonly requests: SandboxRequestLogEntry[];

  private constructor(
    private readonly server: Server,
    private readonly store: SandboxStore,
    private readonly faults: FaultQueue,
    requests: SandboxRequestLogEntry[],
    url: string,
  ) {
    this.url = url;
    this.botUserId = store.botUserId;
    this.requests = requests;
  }

  static async start(options: SlackSandboxOptions): Promise<SlackSandbox> {
    if (typeof options.token !== 'string' || options.token === '') throw new TypeError('SlackSandbox: token is required');
    const store = new SandboxStore(
      generateSeed({
        seed: options.seed ?? 1,
        users: options.users ?? 50,
        channels: options.channels ?? 20,
        messagesPerChannel: options.messagesPerChannel ?? 60,
      }),
      options.clock,
    );
    const faults = new FaultQueue();
    const requests: SandboxRequestLogEntry[] = [];
    const server = createServer(createRequestHandler({ token: options.token, store, faults, requests: options.recordRequests === false ? null : requests }));
    const origin = await listen(server, options.port, options.host);
    return new SlackSandbox(server, store, faults, requests, `${origin}/api`);
  }

  /** Live in-memory state (mutations made through the API show up here). */
  get data(): SandboxData {
    return this.store;
  }

  /** The next `count` calls of `method` ('*' for any) answer `status` instead of (or after) the real result. */
  addFault(fault: SandboxFault): void {
    this.faults.add(fault);
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.close((err) => (err ? reject(err) : resolve()));
      // Keep-alive sockets would otherwise hold close() open until they time out.
      this.server.closeAllConnections();
    });
  }
}

export function startSandbox(options: SlackSandboxOptions): Promise<SlackSandbox> {
  return SlackSandbox.start(options);
}
