import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';

/** jobs/get's `logOffsets`: each attempt's log lines after those the caller already holds, so a growing log is read by parts. */
describe('job logs read by parts', () => {
  let fx: HostedFixture;
  let jobId: number;
  let all: string[];

  const jobsGet = async (body: Record<string, unknown>) => {
    const response = await fx.http.post('api/v1/jobs/get', { headers: bearer(await fx.operatorToken()), json: body });
    return { status: response.statusCode, body: JSON.parse(response.body) };
  };
  const api = async (method: 'get' | 'post', path: string, json?: unknown) => {
    const response = await fx.http[method](path, { headers: bearer(await fx.operatorToken()), ...(json ? { json } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return JSON.parse(response.body);
  };

  beforeAll(async () => {
    fx = await startHostedFixture('sqlite');
    const { workspaceId } = await api('post', 'v1/workspaces', { name: 'Logs' });
    const { sourceId } = await api('post', 'v1/sources', {
      name: 'Team chat',
      workspaceId,
      configuration: { sourceType: 'chat', credentials: { token: CHAT_TOKEN } },
    });
    const { destinationId } = await api('post', 'v1/destinations', { name: 'Tables', workspaceId, configuration: { destinationType: 'sqlite' } });
    const { connectionId } = await api('post', 'v1/connections', { sourceId, destinationId, name: 'Chat to tables' });
    ({ jobId } = await api('post', 'v1/jobs', { connectionId, jobType: 'sync' }));
    for (let status = ''; status !== 'succeeded'; status = (await api('get', `v1/jobs/${jobId}`)).status) {
      if (status === 'failed' || status === 'cancelled') throw new Error(`job ${jobId} ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    all = (await jobsGet({ id: jobId })).body.attempts[0].logs.logLines;
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('answers only the lines after each offset, none past the end, all without one', async () => {
    expect(all.length).toBeGreaterThan(3);
    const tail = await jobsGet({ id: jobId, logOffsets: [all.length - 2] });
    expect(tail.status).toBe(200);
    expect(tail.body.attempts[0].logs.logLines).toEqual(all.slice(-2));
    // The rest of the answer is as without offsets.
    expect(tail.body.job).toEqual((await jobsGet({ id: jobId })).body.job);
    expect((await jobsGet({ id: jobId, logOffsets: [all.length] })).body.attempts[0].logs.logLines).toEqual([]);
    expect((await jobsGet({ id: jobId, logOffsets: [all.length + 10] })).body.attempts[0].logs.logLines).toEqual([]);
    expect((await jobsGet({ id: jobId, logOffsets: [] })).body.attempts[0].logs.logLines).toEqual(all);
    // Offsets past the attempts name none of them.
    expect((await jobsGet({ id: jobId, logOffsets: [0, 5] })).body.attempts[0].logs.logLines).toEqual(all);
  });

  it('refuses an offset that is no count, naming it', async () => {
    for (const logOffsets of [[-1], ['3'], 2]) {
      const answer = await jobsGet({ id: jobId, logOffsets });
      expect(answer.status).toBe(422);
      expect(JSON.stringify(answer.body.detail)).toContain('logOffsets');
    }
  });

  it('is described in the OpenAPI description', async () => {
    const openapi = JSON.parse((await fx.http.get('openapi.json')).body);
    const operation = openapi.paths['/api/v1/jobs/get'].post;
    expect(operation.summary).toContain('logOffsets');
    const schema = operation.requestBody.content['application/json'].schema;
    const resolved = schema.$ref ? openapi.components.schemas[schema.$ref.split('/').at(-1)] : schema;
    expect(resolved.properties.logOffsets).toMatchObject({ type: 'array', items: { type: 'integer', minimum: 0 } });
  });
});
