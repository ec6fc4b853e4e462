/** `/` links a newcomer to the docs, the OpenAPI description and the widget demo; `/docs/<file>.md` serves the docs as written. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';

describe('the landing page', () => {
  let fx: HostedFixture;
  beforeAll(async () => {
    fx = await startHostedFixture('sqlite');
  }, 60_000);
  afterAll(() => fx?.close());

  it('answers / with links to the docs, /openapi.json and the widget demo, and every link works', async () => {
    const page = await fx.http.get('');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('href="/openapi.json"');
    expect(page.body).toContain('npm run widget:demo');
    const links = [...page.body.matchAll(/href="\/([^"]+)"/g)].map((match) => match[1]!);
    expect(links).toEqual(expect.arrayContaining(['docs/airbyte-manifests.md', 'docs/connectors/chat.md', 'docs/public-api.md']));
    for (const link of links) expect((await fx.http.get(link)).statusCode, link).toBe(200);
  });

  it('serves docs as Markdown, and nothing outside docs/', async () => {
    const doc = await fx.http.get('docs/sync.md');
    expect(doc.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(doc.body.startsWith('# ')).toBe(true);
    for (const path of ['docs/../package.json', 'docs/%2e%2e/package.json', 'docs/examples/declarative-source.yaml', 'docs/missing.md']) {
      expect((await fx.http.get(path)).statusCode, path).toBe(404);
    }
  });
});
