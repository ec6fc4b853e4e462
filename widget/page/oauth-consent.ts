import type { EmbeddedOAuthInitiateResponse } from '../../core/hosted/types.generated.ts';
import { isOAuthDoneMessage } from '../protocol.ts';
import type { ApiAnswer, ApiFailure } from './api.ts';

/** How a consent ended: the secret id it granted, or why there is none. */
export type ConsentOutcome =
  | { ok: true; secretId: string }
  /** The browser refused to open the window. */
  | { ok: false; reason: 'blocked' }
  /** The end user closed the window before deciding. */
  | { ok: false; reason: 'closed' }
  /** The provider (or Plugboard's callback) ended it with an error code: `access_denied` when the end user refused. */
  | { ok: false; reason: 'error'; code: string }
  /** The server would not start it (no app registered, a template not offered…). */
  | { ok: false; reason: 'refused'; failure: ApiFailure };

const POLL_MS = 400;
/** After the window is seen closed, its last message may still be on its way: it gets this long to arrive. */
const CLOSED_GRACE_MS = 1_000;
const POPUP_FEATURES = 'popup,width=520,height=720';
/** An error code as the widget shows it; anything else is shown as a generic one. */
const ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

let current: (() => void) | undefined;

/**
 * Asks the end user's consent in a popup. Call it synchronously from the click (or key) handler:
 * the window is opened at once on about:blank, so popup blockers let it through, and sent to the
 * consent page once `initiate` answers. The outcome comes back from Plugboard's done page as a
 * message, taken only from the popup, from this page's own origin, carrying the state `initiate`
 * gave. A second consent started meanwhile ends the first one, its window closed.
 */
export function askConsent(initiate: () => Promise<ApiAnswer<EmbeddedOAuthInitiateResponse>>, waitingText: string): Promise<ConsentOutcome> {
  current?.();
  const popup = window.open('about:blank', 'plugboard-oauth', POPUP_FEATURES);
  if (!popup) return Promise.resolve({ ok: false, reason: 'blocked' });
  try {
    popup.document.title = waitingText;
    popup.document.body.textContent = waitingText;
  } catch {
    // A window the page may not write into: it only waits blank a moment longer.
  }
  return new Promise((resolve) => {
    let state: string | undefined;
    let settled = false;
    const settle = (outcome: ConsentOutcome | undefined) => {
      if (settled) return;
      settled = true;
      window.removeEventListener('message', receive);
      clearInterval(poll);
      if (current === cancel) current = undefined;
      if (!popup.closed && outcome?.ok !== true) popup.close();
      if (outcome) resolve(outcome);
    };
    const cancel = () => settle(undefined);
    current = cancel;
    const receive = (event: MessageEvent) => {
      if (event.origin !== location.origin || event.source !== popup || !isOAuthDoneMessage(event.data)) return;
      if (state === undefined || event.data.state !== state) return;
      const { secret_id: secretId, error } = event.data;
      if (error === undefined && secretId) settle({ ok: true, secretId });
      else settle({ ok: false, reason: 'error', code: error !== undefined && ERROR_CODE.test(error) ? error : 'oauth_error' });
    };
    window.addEventListener('message', receive);
    const poll = setInterval(() => {
      if (popup.closed) {
        clearInterval(poll);
        setTimeout(() => settle({ ok: false, reason: 'closed' }), CLOSED_GRACE_MS);
      }
    }, POLL_MS);
    const begin = (answer: ApiAnswer<EmbeddedOAuthInitiateResponse>) => {
      if (settled) return;
      if (!answer.ok) return settle({ ok: false, reason: 'refused', failure: answer.failure });
      const url = new URL(answer.data.consent_url);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return settle({ ok: false, reason: 'error', code: 'invalid_consent_url' });
      state = answer.data.state;
      if (!popup.closed) popup.location.href = url.href;
    };
    initiate()
      .then(begin)
      .catch(() => settle({ ok: false, reason: 'error', code: 'network_error' }));
  });
}
