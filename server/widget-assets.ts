import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

/** One compiled file of the widget, served under its content hash (so it can be cached for good). */
export interface WidgetAsset {
  type: string;
  body: Buffer;
}

export interface WidgetAssets {
  /** The widget page's HTML, pointing at its hashed script and style sheet. */
  page: string;
  /** The page OAuth consents end on (/widget/oauth/done): it hands their outcome to the widget page that opened them. */
  oauthDonePage: string;
  /** By file name, under /embedded-widget/assets/. */
  files: Map<string, WidgetAsset>;
  /** The host script, /embedded-widget.js: an ES module exporting PlugboardWidget. */
  hostScript: Buffer;
  /** The icon of a connector type whose definition declares none. */
  defaultIcon: Buffer;
}

const WIDGET_DIR = new URL('../widget/', import.meta.url);
export const WIDGET_ASSETS_PATH = '/embedded-widget/assets/';

let built: WidgetAssets | undefined;

/**
 * The widget's TypeScript and CSS, bundled and minified by esbuild when the server starts (once per
 * process): nothing is fetched from elsewhere at run time, and the repository holds no build output.
 */
export function widgetAssets(): WidgetAssets {
  built ??= build();
  return built;
}

/** One entry of widget/, bundled and minified into a single file (a script, or a style sheet). */
function bundle(entry: string): Buffer {
  const [output] = buildSync({
    entryPoints: [fileURLToPath(new URL(entry, WIDGET_DIR))],
    bundle: true,
    minify: true,
    write: false,
    legalComments: 'none',
    ...(entry.endsWith('.ts') ? { format: 'esm', target: 'es2022' } : {}),
  }).outputFiles;
  return Buffer.from(output!.contents);
}

/** A file name carrying a digest of its content, so a changed file is a new address. */
function hashed(name: string, extension: string, body: Buffer): string {
  return `${name}.${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${extension}`;
}

/** An HTML page of widget/page/ pointing at its hashed script and style sheet. */
function htmlPage(file: string, scriptName: string, styleName: string): string {
  return readFileSync(new URL(`page/${file}`, WIDGET_DIR), 'utf8')
    .replace('%SCRIPT%', `${WIDGET_ASSETS_PATH}${scriptName}`)
    .replace('%STYLE%', `${WIDGET_ASSETS_PATH}${styleName}`);
}

function build(): WidgetAssets {
  const script = bundle('page/main.ts');
  const doneScript = bundle('page/oauth-done.ts');
  const style = bundle('page/widget.css');
  const scriptName = hashed('widget', 'js', script);
  const doneScriptName = hashed('oauth-done', 'js', doneScript);
  const styleName = hashed('widget', 'css', style);
  return {
    page: htmlPage('index.html', scriptName, styleName),
    oauthDonePage: htmlPage('oauth-done.html', doneScriptName, styleName),
    files: new Map([
      [scriptName, { type: 'text/javascript; charset=utf-8', body: script }],
      [doneScriptName, { type: 'text/javascript; charset=utf-8', body: doneScript }],
      [styleName, { type: 'text/css; charset=utf-8', body: style }],
    ]),
    hostScript: bundle('host/plugboard-widget.ts'),
    defaultIcon: readFileSync(new URL('page/connector-icon.svg', WIDGET_DIR)),
  };
}
