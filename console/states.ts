import type { ComponentChildren } from 'preact';
import type { ApiError } from './api.ts';
import { html } from './html.ts';

/** What to do after a failure, by its status: the console says the next step, not just the code. */
function nextStep(error: ApiError): string {
  if (error.status === 403) return 'Your application may not do this here; ask an administrator of the organization for a permission.';
  if (error.status === 404) return 'It may have been deleted: go back to the list.';
  if (error.status === 429) return 'Too many attempts: wait a minute, then try again.';
  if (error.status === 0 || error.status >= 500) return 'The server did not answer as expected; the console tries again by itself.';
  return 'Check the values and try again.';
}

export function ErrorNote({ error }: { error: ApiError | undefined }) {
  if (!error) return null;
  return html`<p class="error" role="alert">${error.message} ${nextStep(error)}</p>`;
}

export function Loading({ what }: { what: string }) {
  return html`<p class="muted" role="status">Loading ${what}…</p>`;
}

/** An empty list: what it would hold, and how to fill it. */
export function Empty({ children }: { children: ComponentChildren }) {
  return html`<p class="empty">${children}</p>`;
}

/** Statuses whose words differ from their code. */
const STATUS_WORDS: Record<string, string> = { 'needs-reauthorization': 'needs re-authorization' };

export function StatusBadge({ status }: { status: string }) {
  return html`<span class=${`badge badge-${status}`}>${STATUS_WORDS[status] ?? status.replaceAll('_', ' ')}</span>`;
}
