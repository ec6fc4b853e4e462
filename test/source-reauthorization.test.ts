import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { registerSlackApp, revokedSlackSource, slackSecretId } from './helpers/oauth-source.ts';
import { plainPublicApi } from './helpers/public-api-calls.ts';

/** GET /v1/workspaces/{id}/sources_needing_reauthorization: sources whose grant is gone, until they are reconnected. */
describe.each(BACKENDS)('sources needing reauthorization (%s)', (backend) => {
  let fx: HostedFixture;
  let api: Awaited<ReturnType<typeof plainPublicApi>>;
  let workspaceId: string;

  beforeAll(async () => {
    fx = await startHostedFixture(backend);
    api = await plainPublicApi(fx);
    await registerSlackApp(api.call);
    ({ workspaceId } = await api.call('post', 'v1/workspaces', { name: 'reconnects' }));
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
  });

  const needing = async () => (await api.call('get', `v1/workspaces/${workspaceId}/sources_needing_reauthorization`)).data;

  it('lists a source once its grant is gone, and no more once reconnected with a new secretId', async () => {
    expect(await needing()).toEqual([]);
    const sourceId = await revokedSlackSource(fx, api.call, workspaceId, 'Slack of Ada');
    const listed = await needing();
    expect(listed).toMatchObject([{ sourceId, name: 'Slack of Ada', sourceType: 'slack' }]);
    // As GET /sources/{id} answers it: its secrets masked.
    expect(listed[0]).toEqual(await api.call('get', `v1/sources/${sourceId}`));

    const secretId = await slackSecretId(fx, api.call, workspaceId);
    await api.call('patch', `v1/sources/${sourceId}`, { secretId });
    expect(await needing()).toEqual([]);
    expect(await api.call('post', 'api/v1/sources/check_connection', { sourceId })).toMatchObject({ status: 'succeeded' });
  });

  it('answers 404 for a workspace not of the organization', async () => {
    const token = await fx.operatorToken();
    expect((await fx.http.get(`v1/workspaces/${randomUUID()}/sources_needing_reauthorization`, { headers: bearer(token) })).statusCode).toBe(404);
  });
});
