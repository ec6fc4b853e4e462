import { AUTH_TOKEN_REQUEST, decodeBase64Text, isTokenMessage } from '../protocol.ts';

/** A token this close to its `exp` counts as expired: a call made with it could arrive too late. */
const EXPIRY_MARGIN_MS = 10_000;
/** While waiting, the widget asks again this often: a host may have been given a new token since. */
const ASK_AGAIN_MS = 5_000;

/**
 * Keeps the widget's token, in memory only: asks the host page for it (posting `auth_token_request`
 * to the allowed origin), takes it only from a message whose origin is the allowed origin and whose
 * sender is the page that framed us, and asks again once it has expired.
 */
export class TokenKeeper {
  private token: string | undefined;
  private expiresAt = 0;
  private readonly waiting: Array<(token: string) => void> = [];
  private askingAgain: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly allowedOrigin: string,
    private readonly host: Window,
    /** Told when the widget starts and stops waiting for a token (the page says so to the end user). */
    private readonly onWaiting: (waiting: boolean) => void,
  ) {
    window.addEventListener('message', (event) => this.receive(event));
  }

  /** A token that has not expired: the one kept, or the next one the host sends. */
  current(): Promise<string> {
    if (this.token !== undefined && Date.now() < this.expiresAt) return Promise.resolve(this.token);
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (this.waiting.length === 1) {
        this.onWaiting(true);
        this.request();
        this.askingAgain = setInterval(() => this.request(), ASK_AGAIN_MS);
      }
    });
  }

  /** The server refused the kept token (401): the next call asks the host for another. */
  refused(): void {
    this.expiresAt = 0;
  }

  request(): void {
    this.host.postMessage(AUTH_TOKEN_REQUEST, this.allowedOrigin);
  }

  private receive(event: MessageEvent): void {
    if (event.origin !== this.allowedOrigin || event.source !== this.host || !isTokenMessage(event.data)) return;
    const expiresAt = expiryOf(event.data.scopedAuthToken);
    // An expired token (a host that was not given a new one yet) is not kept: the widget goes on waiting.
    if (Date.now() >= expiresAt) return;
    this.token = event.data.scopedAuthToken;
    this.expiresAt = expiresAt;
    if (this.waiting.length === 0) return;
    clearInterval(this.askingAgain);
    this.onWaiting(false);
    for (const resolve of this.waiting.splice(0)) resolve(this.token);
  }
}

/** When a JWT stops being usable (its `exp`, less the margin); a token whose payload can't be read is left for the server to judge. */
function expiryOf(token: string): number {
  try {
    const { exp } = JSON.parse(decodeBase64Text(token.split('.')[1] ?? '')) as { exp?: unknown };
    return typeof exp === 'number' ? exp * 1000 - EXPIRY_MARGIN_MS : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
