import { readFileSync } from 'node:fs';
import { type BundledAsset, bundleEntry, hashedName } from './bundled-assets.ts';

/** One compiled file of the widget, served under its content hash (so it can be cached for good). */
export type WidgetAsset = BundledAsset;

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

const bundle = (entry: string) => bundleEntry(WIDGET_DIR, entry);

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
  const scriptName = hashedName('widget', 'js', script);
  const doneScriptName = hashedName('oauth-done', 'js', doneScript);
  const styleName = hashedName('widget', 'css', style);
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
