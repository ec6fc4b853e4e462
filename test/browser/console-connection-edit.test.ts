import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, freePort, launchBrowser } from '../helpers/browser.ts';
import { CHAT_TOKEN } from '../helpers/chat-fixture.ts';
import { consoleScreenshot, openConsole } from '../helpers/console-browser.ts';
import { workspaceReader } from '../helpers/console-session.ts';
import { bearer, startHostedFixture, type HostedFixture } from '../helpers/hosted-fixture.ts';

interface StreamProperty {
  streamName: string;
  syncModes: string[];
  sourceDefinedPrimaryKey: string[][];
  propertyFields: string[][];
}

/** A connection's streams, sync modes, fields and schedule changed on its page in Chromium; the API's issues beside the field they name; a reader offered no edit. */
describe.skipIf(!browserAvailable())('console connection editing in a browser', { timeout: 90_000 }, () => {
  let fx: HostedFixture;
  let browser: Browser;
  let serverUrl: string;
  let connectionId: string;
  let properties: StreamProperty[];
  let reader: Awaited<ReturnType<typeof workspaceReader>>;

  const api = async (method: 'get' | 'post', path: string, json?: unknown) => {
    const response = await fx.http[method](path, { headers: bearer(await fx.operatorToken()), ...(json ? { json } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return JSON.parse(response.body);
  };
  const stored = () => api('get', `v1/connections/${connectionId}`);

  beforeAll(async () => {
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    fx = await startHostedFixture('sqlite', { port, config: { publicUrl: serverUrl } });
    const { workspaceId } = await api('post', 'v1/workspaces', { name: 'Editing' });
    const { sourceId } = await api('post', 'v1/sources', {
      name: 'Team chat',
      workspaceId,
      configuration: { sourceType: 'chat', credentials: { token: CHAT_TOKEN } },
    });
    const { destinationId } = await api('post', 'v1/destinations', { name: 'Tables', workspaceId, configuration: { destinationType: 'sqlite' } });
    properties = await api('get', `v1/streams?sourceId=${sourceId}&destinationId=${destinationId}`);
    const streams = [{ name: 'users', syncMode: 'full_refresh_overwrite' }];
    ({ connectionId } = await api('post', 'v1/connections', { sourceId, destinationId, name: 'Chat to tables', configurations: { streams } }));
    reader = await workspaceReader(fx, workspaceId);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  const openEditor = async (page: Page) => {
    await page.getByRole('button', { name: 'Edit streams and schedule of Chat to tables' }).click();
    await page.getByRole('checkbox', { name: 'Sync users' }).waitFor();
  };
  const save = (page: Page) => page.getByRole('button', { name: 'Save Chat to tables' }).click();

  it("offers only the source's streams and modes, and saves streams, modes, fields and a cron schedule", async () => {
    const { page, violations } = await openConsole(browser, serverUrl, fx);
    await page.goto(`${serverUrl}/console#/connections/${connectionId}`);
    await page.getByRole('heading', { name: 'Chat to tables', level: 1 }).waitFor();
    await openEditor(page);

    // Exactly the streams GET /v1/streams names, each with exactly its own sync modes.
    const offered = await page.getByRole('checkbox', { name: /^Sync / }).evaluateAll((boxes) => boxes.map((box) => box.parentElement!.textContent!.trim()));
    expect(offered).toEqual(properties.map((property) => `Sync ${property.streamName}`));
    const users = properties.find((property) => property.streamName === 'users')!;
    const modes = await page
      .getByLabel('Sync mode of users')
      .locator('option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(modes).toEqual(users.syncModes);
    expect(await page.getByRole('checkbox', { name: 'Sync users' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Sync mode of users').inputValue()).toBe('full_refresh_overwrite');

    // A second stream added, in its default mode, with two of its fields (its key among them).
    const other = properties.find((property) => property.streamName !== 'users' && property.propertyFields.length > 2)!;
    const key = other.sourceDefinedPrimaryKey.map((path) => path[0]!);
    const extra = other.propertyFields.map((path) => path[0]!).find((field) => !key.includes(field))!;
    await page.getByRole('checkbox', { name: `Sync ${other.streamName}` }).check();
    const mode = other.syncModes.at(-1)!;
    await page.getByLabel(`Sync mode of ${other.streamName}`).selectOption(mode);
    await page.getByRole('checkbox', { name: `All fields of ${other.streamName}` }).uncheck();
    const fields = page.getByRole('group', { name: `Fields of ${other.streamName}` });
    for (const path of other.propertyFields) {
      const wanted = [...key, extra].includes(path[0]!);
      await fields.getByRole('checkbox', { name: path[0]!, exact: true }).setChecked(wanted);
    }
    await page.getByRole('radio', { name: 'On a cron expression' }).check();
    await page.getByLabel('Cron expression', { exact: true }).fill('0 0 12 * * ? UTC');
    await consoleScreenshot(page, 'connection-edit-form');
    await save(page);
    await page.getByText('The streams and schedule of Chat to tables are saved.').waitFor();

    const saved = await stored();
    expect(saved.schedule).toMatchObject({ scheduleType: 'cron', cronExpression: '0 0 12 * * ? UTC' });
    expect(saved.configurations.streams).toHaveLength(2);
    const added = saved.configurations.streams.find((stream: { name: string }) => stream.name === other.streamName);
    expect(added.syncMode).toBe(mode);
    expect(added.selectedFields.map((field: { fieldPath: string[] }) => field.fieldPath[0]).sort()).toEqual([...key, extra].sort());
    // The page shows what was saved.
    await page.getByText(`cron 0 0 12 * * ? UTC`).waitFor();
    await consoleScreenshot(page, 'connection-edited');
    expect(violations).toEqual([]);
    await page.close();
  });

  it('shows the API issues beside the stream or the schedule they name, then removes a stream', async () => {
    const { page } = await openConsole(browser, serverUrl, fx);
    await page.goto(`${serverUrl}/console#/connections/${connectionId}`);
    await openEditor(page);

    // A cron expression the API refuses: its 400's issue beside the cron field.
    await page.getByLabel('Cron expression', { exact: true }).fill('every day at noon');
    await save(page);
    const cron = page.getByLabel('Cron expression', { exact: true });
    await expect.poll(() => cron.getAttribute('aria-invalid')).toBe('true');
    const cronIssues = page.locator('#edit-connection-schedule-issues');
    expect(await cronIssues.textContent()).toMatch(/cron/i);
    expect(await page.locator('.schedule').getByRole('alert').count()).toBe(1);

    // A deduplicated stream without its primary key among the fields: the issue in that stream's box.
    const deduped = properties.find((property) => property.syncModes.includes('incremental_deduped_history') && property.sourceDefinedPrimaryKey.length > 0)!;
    await page.getByLabel('Cron expression', { exact: true }).fill('0 0 6 * * ?');
    await page.getByRole('checkbox', { name: `Sync ${deduped.streamName}` }).check();
    await page.getByLabel(`Sync mode of ${deduped.streamName}`).selectOption('incremental_deduped_history');
    await page.getByRole('checkbox', { name: `All fields of ${deduped.streamName}` }).uncheck();
    const keyField = deduped.sourceDefinedPrimaryKey[0]![0]!;
    await page
      .getByRole('group', { name: `Fields of ${deduped.streamName}` })
      .getByRole('checkbox', { name: keyField, exact: true })
      .uncheck();
    await save(page);
    const box = page.getByRole('group', { name: `Sync ${deduped.streamName}` });
    await expect.poll(() => box.getByRole('alert').textContent()).toContain(keyField);
    expect(await page.getByRole('group', { name: `Fields of ${deduped.streamName}` }).getAttribute('aria-invalid')).toBe('true');
    expect(await cronIssues.count()).toBe(0);
    await consoleScreenshot(page, 'connection-edit-issues');

    // Nothing saved by the refused requests; then a stream removed and the schedule back to manual.
    expect((await stored()).schedule.cronExpression).toBe('0 0 12 * * ? UTC');
    await page.getByRole('checkbox', { name: `Sync ${deduped.streamName}` }).uncheck();
    const kept = (await stored()).configurations.streams.find((stream: { name: string }) => stream.name !== 'users').name;
    await page.getByRole('checkbox', { name: `Sync ${kept}` }).uncheck();
    await page.getByRole('radio', { name: /^Manual/ }).check();
    await save(page);
    await page.getByText('The streams and schedule of Chat to tables are saved.').waitFor();
    const after = await stored();
    expect(after.configurations.streams.map((stream: { name: string }) => stream.name)).toEqual(['users']);
    expect(after.schedule.scheduleType).toBe('manual');

    // Unticking every stream is refused before anything is sent (an empty list would mean every stream).
    await openEditor(page);
    await page.getByRole('checkbox', { name: 'Sync users' }).uncheck();
    await save(page);
    await page.getByText('Choose at least one stream to sync.').waitFor();
    expect((await stored()).configurations.streams).toHaveLength(1);
    await page.close();
  });

  it('shows a reader the configuration without edit controls', async () => {
    const { page } = await openConsole(browser, serverUrl, reader);
    await page.goto(`${serverUrl}/console#/connections/${connectionId}`);
    await page.getByRole('heading', { name: 'Chat to tables', level: 1 }).waitFor();
    await page.locator('.streams').getByText('users').waitFor();
    await page.getByText('manual', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: /Edit|Save/ }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    await consoleScreenshot(page, 'connection-reader');
    await page.close();
  });
});
