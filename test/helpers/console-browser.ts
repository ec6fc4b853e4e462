import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';

/** Where the console's browser tests save their screenshots (not committed: docs/images/console.png is the README's). */
export const CONSOLE_SCREENSHOT_DIR = 'test-results/console';

export async function consoleScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(CONSOLE_SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${CONSOLE_SCREENSHOT_DIR}/${name}.png`, fullPage: true });
}

/**
 * A new browser page signed in to the console with application credentials, by keyboard as a user
 * would; `violations` collects what the page's CSP refused (a test expects none).
 */
export async function openConsole(
  browser: Browser,
  serverUrl: string,
  credentials: { clientId: string; clientSecret: string },
  viewport = { width: 1280, height: 900 },
): Promise<{ page: Page; violations: string[] }> {
  const page = await browser.newPage({ viewport });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(`${serverUrl}/console`);
  await page.getByLabel('Client id').fill(credentials.clientId);
  await page.getByLabel('Client secret').fill(credentials.clientSecret);
  await page.getByLabel('Client secret').press('Enter');
  await page.getByRole('heading', { name: 'Workspaces', level: 1 }).waitFor();
  return { page, violations };
}
