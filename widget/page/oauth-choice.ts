import { h, uniqueId } from './dom.ts';

export interface OAuthChoice {
  /** The "Connect with <provider>" button and its hint, then the switch to the token form and that form. */
  root: HTMLElement;
  connectButton: HTMLButtonElement;
  /** Whether the end user chose to paste a token instead. */
  readonly usingToken: boolean;
}

/**
 * The credentials part of a new source's form for a type with an OAuth flow: connecting the account
 * by consent comes first; pasting a token (`tokenForm`: the credentials field and its submit button)
 * stays behind "Use a token instead".
 */
export function oauthChoice(provider: string, tokenForm: HTMLElement, connect: () => void, toggled: (usingToken: boolean) => void): OAuthChoice {
  let usingToken = false;
  const hintId = uniqueId('hint');
  const connectButton = h(
    'button',
    { type: 'button', class: 'primary oauth-connect', 'aria-describedby': hintId, onclick: () => connect() },
    `Connect with ${provider}`,
  );
  const tokenId = uniqueId('token-form');
  const section = h('div', { class: 'token-form', id: tokenId, hidden: true }, tokenForm);
  const toggle = h('button', { type: 'button', class: 'link', 'aria-expanded': 'false', 'aria-controls': tokenId }, 'Use a token instead');
  toggle.addEventListener('click', () => {
    usingToken = !usingToken;
    section.hidden = !usingToken;
    toggle.setAttribute('aria-expanded', String(usingToken));
    toggled(usingToken);
  });
  return {
    root: h(
      'div',
      { class: 'oauth' },
      h('div', { class: 'actions' }, connectButton),
      h('p', { class: 'hint', id: hintId }, `${provider} opens in a new window, where you allow access to your account.`),
      toggle,
      section,
    ),
    connectButton,
    get usingToken() {
      return usingToken;
    },
  };
}
