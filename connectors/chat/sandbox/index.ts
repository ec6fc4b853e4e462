import { createServer, type Server } from 'node:http';
import { OAuthSandbox } from '../../../testing/oauth/index.ts';
import { FaultQueue } from './faults.ts';
import { ACCESS_METHOD, AUTHORIZE_PATH, SlackOAuth } from './oauth.ts';
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
export type { OAuthClientPair, OAuthStats } from '../../../testing/oauth/index.ts';
export { BASE_EPOCH } from './seed.ts';

/**
 * A local emulator of the Slack Web API (17 methods) over plain HTTP, backed by deterministic seeded
 * data, with fault injection for rate limits and server errors, and Slack's OAuth v2 (token rotation on).
 */
export class SlackSandbox extends OAuthSandbox {
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
    oauth: SlackOAuth,
    requests: SandboxRequestLogEntry[],
    origin: string,
    private readonly pace: { latencyMs: number },
  ) {
    // authorizeUrl and tokenUrl stand where https://slack.com/oauth/v2/authorize and .../api/oauth.v2.access do.
    super(oauth.authority, `${origin}${AUTHORIZE_PATH}`, `${origin}/api/${ACCESS_METHOD}`);
    this.url = `${origin}/api`;
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
    const oauth = new SlackOAuth(store, options.token, options);
    const requests: SandboxRequestLogEntry[] = [];
    const pace = { latencyMs: options.latencyMs ?? 0 };
    const server = createServer(
      createRequestHandler({ token: options.token, store, faults, oauth, requests: options.recordRequests === false ? null : requests, pace }),
    );
    const origin = await listen(server, options.port, options.host);
    return new SlackSandbox(server, store, faults, oauth, requests, origin, pace);
  }

  /** Milliseconds each API method waits before answering, changed for the calls still to come. */
  set latencyMs(ms: number) {
    this.pace.latencyMs = ms;
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
