import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { browserAvailable, freePort, launchBrowser } from '../helpers/browser.ts';
import { slackSourceConfiguration } from '../helpers/chat-fixture.ts';
import { consoleScreenshot, openConsole } from '../helpers/console-browser.ts';
import { bearer, startHostedFixture, type HostedFixture } from '../helpers/hosted-fixture.ts';

/**
 * The console's main path in headless Chromium, against the Slack sandbox: a source, a destination and
 * a connection created in forms, a sync run and watched to its end with its throughput chart and logs,
 * then the connection disabled.
 */
describe.skipIf(!browserAvailable())('console syncs in a browser', { timeout: 120_000 }, () => {
  let fx: HostedFixture;
  let browser: Browser;
  let serverUrl: string;
  let page: Page;
  let violations: string[];
  let workspaceId: string;

  beforeAll(async () => {
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    // Slow and large enough that a sync spans several progress saves (one a second at most).
    fx = await startHostedFixture('sqlite', { port, config: { publicUrl: serverUrl }, chat: { latencyMs: 100, messagesPerChannel: 800 } });
    const response = await fx.http.post('v1/workspaces', { headers: bearer(await fx.operatorToken()), json: { name: 'Sales' } });
    workspaceId = JSON.parse(response.body).workspaceId;
    browser = await launchBrowser();
    ({ page, violations } = await openConsole(browser, serverUrl, fx));
  });
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  const jobStatus = () => page.locator('.facts .badge').first().textContent();

  it('creates a source, a destination and a connection in forms', async () => {
    await page.getByRole('link', { name: 'Sales' }).click();
    await page.getByRole('heading', { name: 'Sales', level: 1 }).waitFor();
    await page.getByText('No source yet').waitFor();

    await page.getByRole('button', { name: 'Add a source' }).click();
    await page.getByLabel('Source name').fill('Slack sandbox');
    await page.getByLabel('Source type').selectOption('slack');
    const { sourceType: _type, ...configuration } = slackSourceConfiguration();
    await page.getByLabel('Source configuration (JSON)').fill('{"credentials": ');
    await page.getByRole('button', { name: 'Create source' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('must be a JSON object');
    await page.getByLabel('Source configuration (JSON)').fill(JSON.stringify(configuration));
    await page.getByRole('button', { name: 'Create source' }).click();
    await page.getByText('Slack sandbox', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add a destination' }).click();
    await page.getByLabel('Destination name').fill('Local tables');
    await page.getByLabel('Destination type').selectOption('sqlite');
    await page.getByRole('button', { name: 'Create destination' }).click();
    await page.getByText('Local tables', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add a connection' }).click();
    await page.getByLabel('Connection name').fill('Slack to tables');
    // The source's own streams (GET /v1/streams), every one ticked at first: two kept, each in a mode it offers.
    await page.getByRole('checkbox', { name: 'Sync users' }).waitFor();
    for (const box of await page.getByRole('checkbox', { name: /^Sync / }).all()) {
      const name = (await box.evaluate((input) => input.parentElement!.textContent!.trim())).replace(/^Sync /, '');
      await box.setChecked(['users', 'channel_messages'].includes(name));
    }
    await page.getByLabel('Sync mode of users').selectOption('full_refresh_overwrite');
    await page.getByLabel('Sync mode of channel_messages').selectOption('full_refresh_overwrite');
    await consoleScreenshot(page, 'connection-form');
    await page.getByRole('button', { name: 'Create connection' }).click();
    await page.getByRole('button', { name: 'Run sync of Slack to tables' }).waitFor();
    const connections = JSON.parse((await fx.http.get(`v1/connections?workspaceIds=${workspaceId}`, { headers: bearer(await fx.operatorToken()) })).body).data;
    expect(connections).toMatchObject([{ name: 'Slack to tables', configurations: { streams: [{ name: 'users' }, { name: 'channel_messages' }] } }]);
    await consoleScreenshot(page, 'workspace');
  });

  it('runs a sync and watches it to completion against the previous run, with its throughput chart and logs', async () => {
    // A first run, so the second has one to be measured against.
    await page.getByRole('button', { name: 'Run sync of Slack to tables' }).click();
    await page.getByRole('heading', { name: /^Job \d+$/ }).waitFor();
    await expect.poll(jobStatus, { timeout: 60_000 }).toBe('succeeded');
    await page.goBack();
    // Each read of the job asks for the log lines after those it holds: every line comes down once.
    const reads: Array<Promise<{ offsets: number[]; lines: number[] }>> = [];
    const onResponse = (response: Response) => {
      if (!response.url().endsWith('/console/api/api/v1/jobs/get')) return;
      const offsets = response.request().postDataJSON().logOffsets;
      reads.push(response.json().then((body) => ({ offsets, lines: body.attempts.map((one: { logs: { logLines: string[] } }) => one.logs.logLines.length) })));
    };
    page.on('response', onResponse);
    await page.getByRole('button', { name: 'Run sync of Slack to tables' }).click();
    await page.getByRole('heading', { name: /^Job \d+$/ }).waitFor();

    // While it runs: progress against the previous run, written records growing.
    await page.getByText(/records written by the previous run/).waitFor();
    await expect.poll(jobStatus, { timeout: 60_000 }).toBe('succeeded');
    const bar = page.locator('#progress-bar');
    // The page learns of the end at its next read of the job (each second), then reads the progress once more.
    await expect
      .poll(async () => ({ value: await bar.getAttribute('value'), max: await bar.getAttribute('max') }), { timeout: 15_000 })
      .toSatisfy(({ value, max }) => value !== null && value === max);

    const points = Number(await page.locator('#throughput .chart-box').getAttribute('data-points'));
    expect(points).toBeGreaterThanOrEqual(3);
    // Drawn, not just laid out: the canvas holds coloured pixels of the series.
    const painted = await page.locator('#throughput .chart-box canvas').evaluate((canvas: HTMLCanvasElement) => {
      const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let coloured = 0;
      for (let i = 0; i < pixels.length; i += 4) if (pixels[i + 3]! > 0 && (pixels[i] !== pixels[i + 1] || pixels[i + 1] !== pixels[i + 2])) coloured++;
      return coloured;
    });
    expect(painted).toBeGreaterThan(100);
    await page.getByText('Throughput over the run: the values as a table').click();
    const rates = await page.locator('#throughput details tbody tr td:nth-child(2)').allTextContents();
    expect(rates.length).toBe(points);
    expect(rates.some((rate) => Number(rate) > 0)).toBe(true);

    const logs = await page.getByLabel('Logs of attempt 1').textContent();
    expect(logs).toContain('users');
    expect(logs).toContain('channel_messages');
    page.off('response', onResponse);
    const answered = await Promise.all(reads);
    expect(answered.length).toBeGreaterThan(2);
    let held = 0;
    for (const { offsets, lines } of answered) {
      expect(offsets).toEqual(held === 0 && offsets.length === 0 ? [] : [held]);
      held += lines[0] ?? 0;
    }
    const jobId = Number((await page.getByRole('heading', { level: 1 }).textContent())!.replace('Job ', ''));
    const whole = JSON.parse((await fx.http.post('api/v1/jobs/get', { headers: bearer(await fx.operatorToken()), json: { id: jobId } })).body);
    expect(held).toBe(whole.attempts[0].logs.logLines.length);
    expect(logs).toBe(whole.attempts[0].logs.logLines.join('\n'));
    await consoleScreenshot(page, 'job-finished');
  });

  it("plots the connection's history: duration and records per run", async () => {
    await page.goBack();
    await page.getByRole('link', { name: 'Slack to tables' }).click();
    await page.getByRole('heading', { name: 'Slack to tables', level: 1 }).waitFor();
    await expect.poll(() => page.locator('#history .chart-box').getAttribute('data-points')).toBe('2');
    await page.getByText('Duration and records per run: the values as a table').click();
    const records = await page.locator('#history details tbody tr td:nth-child(3)').allTextContents();
    expect(records).toHaveLength(2);
    expect(records.every((value) => Number(value) > 0)).toBe(true);
    await consoleScreenshot(page, 'connection-history');
  });

  it('disables the connection', async () => {
    await page.getByRole('button', { name: 'Disable Slack to tables' }).click();
    await page.getByRole('button', { name: 'Enable Slack to tables' }).waitFor();
    const connection = JSON.parse((await fx.http.get(`v1/connections?workspaceIds=${workspaceId}`, { headers: bearer(await fx.operatorToken()) })).body)
      .data[0];
    expect(connection.status).toBe('inactive');
    await consoleScreenshot(page, 'connection-disabled');
    expect(violations).toEqual([]);
  });
});
