import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type HostedFixture } from './helpers/hosted-fixture.ts';
import { type Answer, HostedConformance } from './helpers/hosted-openapi.ts';
import {
  type CallAnswer,
  officialSlackConfiguration,
  otherOrganizationToken,
  type publicApiCalls,
  rawPublicCalls,
  startPublicApiSuite,
} from './helpers/public-api-calls.ts';
import { PublicApiSpec } from './helpers/public-api-spec.ts';

/**
 * Tags through the public cloud API, against Airbyte's official description: a workspace's tags
 * (names unique there and at most 30 characters, RRGGBB colors, at most 100), the tags connections
 * carry, and the list of connections narrowed by them.
 */

const spec = PublicApiSpec.load();
const OPERATIONS = ['post /sources', 'post /connections', 'patch /connections/{connectionId}', 'get /connections', 'get /connections/{connectionId}'];

describe.each(BACKENDS)('public cloud API tags on %s', (backend) => {
  let fx: HostedFixture;
  let token: string;
  let call: ReturnType<typeof publicApiCalls>;
  let workspaceId: string;
  let otherWorkspaceId: string;
  let sourceId: string;
  let destinationId: string;
  const answers: Answer[] = [];

  const createTag = (name: string, color = 'FF5733', workspace = workspaceId) =>
    call('post', '/tags', '/tags', { body: { name, color, workspaceId: workspace } });
  const connect = (body: Record<string, unknown> = {}) => call('post', '/connections', '/connections', { body: { sourceId, destinationId, ...body } });
  /** A tag as a connection request names it: as the tag's answer gives it. */
  const ref = (tag: CallAnswer) => tag.body as { tagId: string; workspaceId: string; name: string; color: string };
  const raw = (method: 'GET' | 'POST' | 'PATCH', path: string, json?: unknown) => rawPublicCalls(fx, () => token)(method, path, json);
  const connectionIds = (answer: CallAnswer) => answer.body.data.map((connection: { connectionId: string }) => connection.connectionId);

  beforeAll(async () => {
    ({ fx, token, call } = await startPublicApiSuite(backend, spec, { operations: OPERATIONS, answers }));
    workspaceId = (await call('post', '/workspaces', '/workspaces', { body: { name: 'tags-ws' } })).body.workspaceId;
    otherWorkspaceId = (await call('post', '/workspaces', '/workspaces', { body: { name: 'tags-other-ws' } })).body.workspaceId;
    sourceId = (await call('post', '/sources', '/sources', { body: { name: 'team slack', workspaceId, configuration: officialSlackConfiguration() } })).body
      .sourceId;
    const destination = await call('post', '/destinations', '/destinations', {
      body: { name: 'duck', workspaceId, configuration: { destinationType: 'duckdb', destination_path: '/local/tags.duckdb' } },
    });
    destinationId = destination.body.destinationId;
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('creates, reads, lists, renames and deletes tags', async () => {
    const made = await createTag('analytics', 'ff5733');
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toEqual({ tagId: expect.any(String), name: 'analytics', color: 'ff5733', workspaceId });
    expect((await call('get', '/tags/{tagId}', `/tags/${made.body.tagId}`)).body).toEqual(made.body);
    const elsewhere = await createTag('analytics', '000000', otherWorkspaceId);
    expect(elsewhere.status, 'a name is unique in its workspace only').toBe(200);

    const mine = await call('get', '/tags', `/tags?workspaceIds=${workspaceId}`);
    expect(mine.body.data).toEqual([made.body]);
    const both = await call('get', '/tags', `/tags?workspaceIds=${workspaceId}&workspaceIds=${otherWorkspaceId}`);
    expect(both.body.data).toEqual([made.body, elsewhere.body]);
    const all = await call('get', '/tags', '/tags');
    expect(all.body.data).toEqual(expect.arrayContaining([made.body, elsewhere.body]));

    const renamed = await call('patch', '/tags/{tagId}', `/tags/${made.body.tagId}`, { body: { name: 'analytics team', color: '00AA00' } });
    expect(renamed.body).toEqual({ ...made.body, name: 'analytics team', color: '00AA00' });
    expect((await call('delete', '/tags/{tagId}', `/tags/${made.body.tagId}`)).status).toBe(204);
    expect((await call('get', '/tags/{tagId}', `/tags/${made.body.tagId}`)).status).toBe(404);
    expect((await call('delete', '/tags/{tagId}', `/tags/${made.body.tagId}`)).status).toBe(404);
  });

  it('refuses a taken name (409), a long name, a color not RRGGBB, and any other bad input with a 400 at its place', async () => {
    const first = await createTag('unique');
    const taken = await createTag('unique', '123456');
    expect([taken.status, taken.body.type]).toEqual([409, 'urn:plugboard:error:tag_exists']);
    const other = await createTag('other');
    const renamedOnto = await call('patch', '/tags/{tagId}', `/tags/${other.body.tagId}`, { body: { name: 'unique', color: '123456' } });
    expect([renamedOnto.status, renamedOnto.body.type]).toEqual([409, 'urn:plugboard:error:tag_exists']);
    for (const [body, loc] of [
      [{ name: 'x'.repeat(31), color: 'FF5733', workspaceId }, 'body.name'],
      [{ name: '', color: 'FF5733', workspaceId }, 'body.name'],
      [{ name: 'c', color: '#FF5733', workspaceId }, 'body.color'],
      [{ name: 'c', color: 'GG5733', workspaceId }, 'body.color'],
      [{ name: 'c', color: 'FF573', workspaceId }, 'body.color'],
      [{ name: 'c', workspaceId }, 'body.color'],
      [{ name: 'c', color: 'FF5733' }, 'body.workspaceId'],
      [{ name: 'c', color: 'FF5733', workspaceId: 'not-a-uuid' }, 'body.workspaceId'],
      [{ name: 'c', color: 'FF5733', workspaceId, extra: 1 }, 'body.extra'],
    ] as const) {
      const answer = await raw('POST', '/tags', body);
      expect([answer.status, answer.contentType, answer.body.issues?.[0]?.loc.join('.')], JSON.stringify(body)).toEqual([400, 'application/problem+json', loc]);
    }
    // The official patch asks for both fields.
    const half = await raw('PATCH', `/tags/${first.body.tagId}`, { name: 'only a name' });
    expect([half.status, half.body.issues?.[0]?.loc.join('.')]).toEqual([400, 'body.color']);
    expect((await raw('POST', '/tags', { name: 'c', color: 'FF5733', workspaceId: randomUUID() })).status).toBe(404);
    expect((await raw('GET', `/tags?workspaceIds=${randomUUID()}`)).status).toBe(404);
    expect((await raw('GET', '/tags/not-a-uuid')).status).toBe(404);
  });

  it('keeps at most 100 tags a workspace', async () => {
    const full = (await call('post', '/workspaces', '/workspaces', { body: { name: 'full of tags' } })).body.workspaceId as string;
    for (let i = 0; i < 100; i++) expect((await createTag(`tag ${i}`, 'ABCDEF', full)).status).toBe(200);
    const over = await createTag('one too many', 'ABCDEF', full);
    expect([over.status, over.body.type]).toEqual([400, 'urn:plugboard:error:tag_limit_reached']);
    // Deleting the workspace deletes its tags.
    const one = (await call('get', '/tags', `/tags?workspaceIds=${full}`)).body.data[0].tagId as string;
    expect((await call('delete', '/workspaces/{workspaceId}', `/workspaces/${full}`)).status).toBe(204);
    expect((await call('get', '/tags/{tagId}', `/tags/${one}`)).status).toBe(404);
  });

  it("connections carry their workspace's tags: given at creation, replaced by a patch, renamed and removed with the tag", async () => {
    const red = await createTag('red', 'FF0000');
    const blue = await createTag('blue', '0000FF');
    const made = await connect({ name: 'tagged', tags: [ref(red), ref(blue)] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    // By name.
    expect(made.body.tags).toEqual([blue.body, red.body]);
    expect((await call('get', '/connections/{connectionId}', `/connections/${made.body.connectionId}`)).body.tags).toEqual([blue.body, red.body]);
    // Only the id counts: the name and color are the tag's.
    const patched = await call('patch', '/connections/{connectionId}', `/connections/${made.body.connectionId}`, {
      body: { tags: [{ ...ref(red), name: 'whatever', color: '000000' }] },
    });
    expect(patched.body.tags).toEqual([red.body]);
    expect((await call('patch', '/connections/{connectionId}', `/connections/${made.body.connectionId}`, { body: { name: 'kept tags' } })).body.tags).toEqual([
      red.body,
    ]);
    await call('patch', '/tags/{tagId}', `/tags/${red.body.tagId}`, { body: { name: 'crimson', color: 'DC143C' } });
    const renamed = await call('get', '/connections/{connectionId}', `/connections/${made.body.connectionId}`);
    expect(renamed.body.tags).toEqual([{ ...red.body, name: 'crimson', color: 'DC143C' }]);
    await call('delete', '/tags/{tagId}', `/tags/${red.body.tagId}`);
    expect((await call('get', '/connections/{connectionId}', `/connections/${made.body.connectionId}`)).body.tags).toEqual([]);
    const cleared = await call('patch', '/connections/{connectionId}', `/connections/${made.body.connectionId}`, { body: { tags: [ref(blue)] } });
    expect(cleared.body.tags).toEqual([blue.body]);
    expect((await call('patch', '/connections/{connectionId}', `/connections/${made.body.connectionId}`, { body: { tags: [] } })).body.tags).toEqual([]);
  });

  it('refuses a tag of another workspace, or none, at the entry that names it', async () => {
    const mine = await createTag('mine');
    const theirs = await createTag('theirs', 'FF5733', otherWorkspaceId);
    const foreign = await raw('POST', '/connections', { sourceId, destinationId, tags: [ref(mine), ref(theirs)] });
    expect([foreign.status, foreign.body.issues?.[0]?.loc.join('.'), foreign.body.issues?.[0]?.type]).toEqual([
      400,
      'body.tags.1.tagId',
      'value_error.unknown_tag',
    ]);
    const unknown = await raw('POST', '/connections', { sourceId, destinationId, tags: [{ ...ref(mine), tagId: randomUUID() }] });
    expect([unknown.status, unknown.body.issues?.[0]?.loc.join('.')]).toEqual([400, 'body.tags.0.tagId']);
    const shapeless = await raw('POST', '/connections', { sourceId, destinationId, tags: [{ tagId: mine.body.tagId }] });
    expect(shapeless.status).toBe(400);
  });

  it('lists the connections carrying any of the tagIds given, deleted ones too with includeDeleted', async () => {
    const green = await createTag('green', '00FF00');
    const yellow = await createTag('yellow', 'FFFF00');
    const onlyGreen = (await connect({ name: 'green', tags: [ref(green)] })).body.connectionId;
    const onlyYellow = (await connect({ name: 'yellow', tags: [ref(yellow)] })).body.connectionId;
    const bothTags = (await connect({ name: 'both', tags: [ref(green), ref(yellow)] })).body.connectionId;
    await connect({ name: 'untagged' });
    const byGreen = await call('get', '/connections', `/connections?tagIds=${green.body.tagId}&limit=100`);
    expect(connectionIds(byGreen)).toEqual([onlyGreen, bothTags]);
    const byEither = await call('get', '/connections', `/connections?tagIds=${green.body.tagId}&tagIds=${yellow.body.tagId}&workspaceIds=${workspaceId}`);
    expect(connectionIds(byEither)).toEqual([onlyGreen, onlyYellow, bothTags]);
    const paged = await call('get', '/connections', `/connections?tagIds=${green.body.tagId},${yellow.body.tagId}&limit=2`);
    expect([connectionIds(paged), paged.body.next === undefined]).toEqual([[onlyGreen, onlyYellow], false]);
    expect((await call('get', '/connections', `/connections?tagIds=${randomUUID()}`)).body.data).toEqual([]);

    expect((await call('delete', '/connections/{connectionId}', `/connections/${onlyGreen}`)).status).toBe(204);
    expect(connectionIds(await call('get', '/connections', `/connections?tagIds=${green.body.tagId}`))).toEqual([bothTags]);
    const withDeleted = await call('get', '/connections', `/connections?tagIds=${green.body.tagId}&includeDeleted=true`);
    expect(withDeleted.body.data.map((c: { connectionId: string; status: string; tags: unknown[] }) => [c.connectionId, c.status, c.tags.length])).toEqual([
      [onlyGreen, 'deprecated', 1],
      [bothTags, 'active', 2],
    ]);

    for (const query of ['tagIds=not-a-uuid', `tagIds=${green.body.tagId},nope`]) {
      const answer = await raw('GET', `/connections?${query}`);
      expect([answer.status, answer.body.issues?.[0]?.loc.join('.')], query).toEqual([400, 'query.tagIds']);
    }
  });

  it("does not show another organization's tags, nor lets it use them", async () => {
    const tag = await createTag('private');
    const otherToken = await otherOrganizationToken(fx);
    expect((await call('get', '/tags/{tagId}', `/tags/${tag.body.tagId}`, { token: otherToken })).status).toBe(404);
    expect((await call('patch', '/tags/{tagId}', `/tags/${tag.body.tagId}`, { token: otherToken, body: { name: 'stolen', color: '000000' } })).status).toBe(
      404,
    );
    expect((await call('delete', '/tags/{tagId}', `/tags/${tag.body.tagId}`, { token: otherToken })).status).toBe(404);
    expect((await call('get', '/tags', '/tags', { token: otherToken })).body.data).toEqual([]);
    expect((await call('get', '/tags', `/tags?workspaceIds=${workspaceId}`, { token: otherToken })).status).toBe(404);
    expect((await call('post', '/tags', '/tags', { token: otherToken, body: { name: 'x', color: '000000', workspaceId } })).status).toBe(404);
  });

  it('answers as its own /openapi.json declares, every tag operation with a 2xx at least once', async () => {
    const conformance = new HostedConformance(JSON.parse((await fx.http.get('openapi.json')).body));
    expect([...new Set(answers.map((answer) => conformance.problemWith(answer)).filter(Boolean))]).toEqual([]);
    const succeeded = new Set(answers.filter((answer) => answer.status < 300).map((answer) => conformance.operationOf(answer)));
    const own = conformance.operationKeys({ tagged: 'public API' }).filter((key) => key.includes(' /v1/tags'));
    expect(own.length).toBeGreaterThan(0);
    expect(own.filter((key) => !succeeded.has(key))).toEqual([]);
  });
});
