import { OAUTH_DONE, type OAuthDoneMessage } from '../protocol.ts';
import { h } from './dom.ts';

/**
 * The page the OAuth callback sends the consent's popup to (`/widget/oauth/done?state=&secret_id=`
 * or `&error=`): it hands the outcome to the widget page that opened it (same origin: the message is
 * addressed to this page's own origin, so no other page can read it), then closes. Opened any other
 * way, it only says the window can be closed.
 */
const query = new URLSearchParams(location.search);
const state = query.get('state');
const secretId = query.get('secret_id');
const error = query.get('error');
// The secret id leaves the address bar and the history at once.
history.replaceState(null, '', location.pathname);

const opener = window.opener as Window | null;
if (opener && state) {
  const message: OAuthDoneMessage = { type: OAUTH_DONE, state, ...(secretId ? { secret_id: secretId } : {}), ...(error ? { error } : {}) };
  opener.postMessage(message, location.origin);
  window.close();
}
// Still here: no widget waiting for it, or a browser that keeps the window open.
document.getElementById('widget')!.replaceChildren(h('h1', {}, 'Connecting your account'), h('p', { role: 'status' }, 'You can close this window.'));
