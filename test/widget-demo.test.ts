import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { freePort } from './helpers/browser.ts';

/** `npm run widget:demo` (`node --import tsx scripts/widget-demo.ts`) works for a newcomer: server, sandboxes, templates and the operator page, then a clean stop. */

const ROOT = fileURLToPath(new URL('../', import.meta.url));

it('serves the operator page, whose widget token opens the widget and connects a sandbox source, and stops cleanly', { timeout: 60_000 }, async () => {
  const [port, operatorPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/widget-demo.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), OPERATOR_PORT: String(operatorPort) },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    await expect.poll(() => output, { timeout: 30_000 }).toContain('Ctrl+C stops everything.');
    const page = await fetch(`http://127.0.0.1:${operatorPort}/`);
    expect([page.status, await page.text()]).toEqual([200, expect.stringContaining(`data-plugboard="http://127.0.0.1:${port}"`)]);
    const { token } = (await (await fetch(`http://127.0.0.1:${operatorPort}/widget-token?tags=chat`)).json()) as { token: string };
    const widget = JSON.parse(Buffer.from(token, 'base64').toString()) as { token: string; widgetUrl: string };
    expect(new URL(widget.widgetUrl).origin).toBe(`http://127.0.0.1:${port}`);
    const framed = await fetch(widget.widgetUrl);
    expect([framed.status, framed.headers.get('content-security-policy')]).toEqual([
      200,
      expect.stringContaining(`frame-ancestors http://127.0.0.1:${operatorPort}`),
    ]);
    const templates = (await (
      await fetch(`http://127.0.0.1:${port}/api/v1/embedded/templates/sources`, { headers: { authorization: `Bearer ${widget.token}` } })
    ).json()) as {
      data: Array<{ id: string; name: string }>;
    };
    expect(templates.data.map((template) => template.name)).toEqual(['Team chat']);
    const chatToken = /Team chat:\s+(\S+)/.exec(output)![1]!;
    const created = await fetch(`http://127.0.0.1:${port}/api/v1/embedded/sources`, {
      method: 'POST',
      headers: { authorization: `Bearer ${widget.token}`, 'content-type': 'application/json', origin: `http://127.0.0.1:${operatorPort}` },
      body: JSON.stringify({ source_template_id: templates.data[0]!.id, name: 'Demo chat', credentials: { token: chatToken } }),
    });
    expect(created.status).toBe(201);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  const dataDir = /data in (\S+), removed on exit/.exec(output)![1]!;
  expect(existsSync(dataDir)).toBe(false);
});
