/**
 * The host script (`GET /embedded-widget.js`): an operator's page opens the Plugboard widget in a
 * modal dialog with it. Same interface as Airbyte's official embedded widget: construct it with the
 * base64 widget token your backend got from `POST /api/v1/embedded/widget-token`, then `open()`.
 */
import { AUTH_TOKEN_REQUEST, CLOSE_DIALOG, decodeBase64Text, isContentHeightMessage, type TokenMessage } from '../protocol.ts';

export interface PlugboardWidgetEvent {
  type: string;
  [key: string]: unknown;
}

export interface PlugboardWidgetConfig {
  /** The widget token: base64 (standard or URL-safe alphabet, padded or not) of `{token, widgetUrl}`. */
  token: string;
  /** Every `{type, …}` message the widget posts: `end_user_action_result` with `source_created`, `source_updated`, or an error. */
  onEvent?: (event: PlugboardWidgetEvent) => void;
}

interface WidgetToken {
  token: string;
  widgetUrl: string;
}

/** The dialog is as tall as the widget's content says it is (a loading height until then), never taller than the window. */
const STYLES = `
.plugboard-widget-dialog { padding: 0; border: none; border-radius: 12px; width: min(500px, calc(100vw - 2rem)); height: fit-content; max-width: none; max-height: calc(100vh - 2rem); overflow: hidden; }
.plugboard-widget-dialog::backdrop { background: rgb(20 18 51 / 60%); }
.plugboard-widget-dialog iframe { display: block; width: 100%; height: 12rem; max-height: calc(100vh - 2rem); border: 0; }
`;

export class PlugboardWidget {
  private widget: WidgetToken;
  private readonly onEvent: ((event: PlugboardWidgetEvent) => void) | undefined;
  private dialog: HTMLDialogElement | undefined;
  private iframe: HTMLIFrameElement | undefined;
  private readonly listener = (event: MessageEvent) => this.receive(event);

  constructor({ token, onEvent }: PlugboardWidgetConfig) {
    this.widget = decodeWidgetToken(token);
    this.onEvent = onEvent;
    window.addEventListener('message', this.listener);
  }

  /** Opens the widget in a modal dialog (created on first use, then reused; again after destroy()). */
  open(): void {
    window.addEventListener('message', this.listener);
    if (!this.dialog) {
      adoptStyles();
      this.iframe = document.createElement('iframe');
      this.iframe.src = this.widget.widgetUrl;
      this.iframe.title = 'Connect a data source';
      this.dialog = document.createElement('dialog');
      this.dialog.className = 'plugboard-widget-dialog';
      this.dialog.setAttribute('aria-label', 'Connect a data source');
      this.dialog.append(this.iframe);
      document.body.append(this.dialog);
    }
    if (!this.dialog.open) this.dialog.showModal();
  }

  /** Replaces the token (your backend issued a new one): the open widget gets it at once. */
  updateToken(token: string): void {
    const previousUrl = this.widget.widgetUrl;
    this.widget = decodeWidgetToken(token);
    // Another widgetUrl (other filters, another workspace): the widget reloads there and asks for this token.
    if (this.iframe && this.widget.widgetUrl !== previousUrl) this.iframe.src = this.widget.widgetUrl;
    else this.sendToken();
  }

  /** Removes the dialog and stops listening. */
  destroy(): void {
    window.removeEventListener('message', this.listener);
    this.dialog?.close();
    this.dialog?.remove();
    this.dialog = undefined;
    this.iframe = undefined;
  }

  private get widgetOrigin(): string {
    return new URL(this.widget.widgetUrl).origin;
  }

  /** Only our iframe, from the widget's origin, is listened to. */
  private receive(event: MessageEvent): void {
    if (!this.iframe || event.source !== this.iframe.contentWindow || event.origin !== this.widgetOrigin) return;
    if (event.data === AUTH_TOKEN_REQUEST) this.sendToken();
    else if (event.data === CLOSE_DIALOG) this.dialog?.close();
    // A style property, not a style attribute: a host page's CSP that forbids inline styles allows it.
    else if (isContentHeightMessage(event.data)) this.iframe.style.height = `${Math.ceil(event.data.plugboardContentHeight)}px`;
    else if (typeof event.data === 'object' && event.data !== null && typeof (event.data as { type?: unknown }).type === 'string') {
      this.onEvent?.(event.data as PlugboardWidgetEvent);
    }
  }

  private sendToken(): void {
    this.iframe?.contentWindow?.postMessage({ scopedAuthToken: this.widget.token } satisfies TokenMessage, this.widgetOrigin);
  }
}

/** The widget token's `{token, widgetUrl}`; anything else is refused at once, with a message that says what was expected. */
export function decodeWidgetToken(token: string): WidgetToken {
  let decoded: unknown;
  try {
    decoded = JSON.parse(decodeBase64Text(token));
  } catch {
    decoded = undefined;
  }
  const { token: scoped, widgetUrl } = (decoded ?? {}) as Partial<WidgetToken>;
  if (typeof scoped !== 'string' || typeof widgetUrl !== 'string' || !/^https?:\/\//.test(widgetUrl)) {
    throw new TypeError('PlugboardWidget: token must be the widget token from POST /api/v1/embedded/widget-token (base64 of {token, widgetUrl})');
  }
  return { token: scoped, widgetUrl };
}

let styled = false;
/** A constructed style sheet: works under a host page's CSP that forbids inline styles. */
function adoptStyles(): void {
  if (styled) return;
  styled = true;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(STYLES);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
