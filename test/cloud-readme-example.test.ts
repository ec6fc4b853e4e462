import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceDataDir } from '../core/hosted/sync/destinations/create-destination.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { publicAccessToken } from './helpers/public-api-calls.ts';
import { runScript } from './helpers/server-process.ts';

const EXAMPLE = 'docs/examples/cloud-sync.ts';

/** The README's cloud script is docs/examples/cloud-sync.ts, word for word, and it runs against the server. */
describe("the README's plugboard/cloud script", () => {
  let fx: HostedFixture;

  beforeAll(async () => {
    fx = await startHostedFixture('sqlite');
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('is the example file', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const script = readFileSync(new URL(`../${EXAMPLE}`, import.meta.url), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${script}\`\`\``);
  });

  it('deploys, syncs, reads the tables back and schedules, with nothing but the environment; run again, it reuses what it made', async () => {
    const token = await publicAccessToken(fx);
    const { workspaceId } = await fx.http.post('v1/workspaces', { headers: bearer(token), json: { name: 'readme' } }).json<{ workspaceId: string }>();
    const environment = {
      PLUGBOARD_CLOUD_CLIENT_ID: fx.clientId,
      PLUGBOARD_CLOUD_CLIENT_SECRET: fx.clientSecret,
      PLUGBOARD_CLOUD_WORKSPACE_ID: workspaceId,
      PLUGBOARD_CLOUD_API_URL: `${fx.server.url}/v1`,
      PLUGBOARD_CLOUD_LOCAL_ROOT: workspaceDataDir(fx.dataDir, workspaceId),
      SLACK_API_TOKEN: CHAT_TOKEN,
    };
    const { users } = fx.chatSandbox.data;
    const admins = users.filter((user) => user.is_admin).length;
    for (let run = 1; run <= 2; run++) {
      const result = await runScript([EXAMPLE], environment);
      expect(result.stderr, `run ${run}`).toBe('');
      expect(result.code, `run ${run}`).toBe(0);
      expect(result.stdout).toMatch(/^job \d+: succeeded, \d+ records$/m);
      expect(result.stdout).toContain(`chat_users: ${admins} admins`);
      expect(result.stdout).toMatch(/^channels: \S/m);
      expect(result.stdout).not.toContain(fx.clientSecret);
    }
    const sources = await fx.http.get(`v1/sources?workspaceIds=${workspaceId}`, { headers: bearer(token) }).json<{ data: unknown[] }>();
    expect(sources.data).toHaveLength(1);
  });
});
