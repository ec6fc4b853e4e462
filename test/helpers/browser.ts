import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (apt install chromium); PLUGBOARD_CHROMIUM names another binary. */
export const CHROMIUM = process.env.PLUGBOARD_CHROMIUM ?? '/usr/bin/chromium';
/** Where the browser tests save their screenshots (not committed: docs/images holds the README's). */
export const SCREENSHOT_DIR = 'test-results/widget';

/**
 * Whether the browser tests can run here. Without Chromium they are skipped with one line saying how
 * to get it, except where PLUGBOARD_REQUIRE_BROWSER=1 (CI): there a missing browser fails the run.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  const message = `browser tests need Chromium at ${CHROMIUM} (apt install chromium, or set PLUGBOARD_CHROMIUM)`;
  if (process.env.PLUGBOARD_REQUIRE_BROWSER === '1') throw new Error(message);
  console.warn(`skipped: ${message}`);
  return false;
}

/** Headless Chromium with no background traffic (the machine has no network beyond loopback). */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A loopback port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
