import { readFileSync } from 'node:fs';
import { type BundledAsset, bundleEntry, hashedName } from '../bundled-assets.ts';

export interface ConsoleAssets {
  /** The console's one HTML page, pointing at its hashed script and style sheet. */
  page: string;
  /** By file name, under /console/assets/. */
  files: Map<string, BundledAsset>;
}

const CONSOLE_DIR = new URL('../../console/', import.meta.url);
export const CONSOLE_ASSETS_PATH = '/console/assets/';

let built: ConsoleAssets | undefined;

/** The console's TypeScript and CSS (its libraries included), bundled by esbuild once per process: no build output in the repository. */
export function consoleAssets(): ConsoleAssets {
  built ??= build();
  return built;
}

function build(): ConsoleAssets {
  const script = bundleEntry(CONSOLE_DIR, 'main.ts');
  const style = bundleEntry(CONSOLE_DIR, 'console.css');
  const scriptName = hashedName('console', 'js', script);
  const styleName = hashedName('console', 'css', style);
  const page = readFileSync(new URL('index.html', CONSOLE_DIR), 'utf8')
    .replace('%SCRIPT%', `${CONSOLE_ASSETS_PATH}${scriptName}`)
    .replace('%STYLE%', `${CONSOLE_ASSETS_PATH}${styleName}`);
  return {
    page,
    files: new Map([
      [scriptName, { type: 'text/javascript; charset=utf-8', body: script }],
      [styleName, { type: 'text/css; charset=utf-8', body: style }],
    ]),
  };
}
