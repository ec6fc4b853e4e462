import type { ValidationIssue } from '../core/hosted/types.generated.ts';

export type { ValidationIssue };

/** What a failed call says: its status, and the server's detail (a message, or the issues of a 422). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[],
  ) {
    super(typeof detail === 'string' ? detail : detail.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; '));
  }
}

/** Heard when a call finds the session gone (a 401): the console shows the sign-in form. */
export const signedOut = new EventTarget();

const CSRF_COOKIE = 'plugboard_console_csrf';
const csrfToken = () =>
  document.cookie
    .split('; ')
    .find((pair) => pair.startsWith(`${CSRF_COOKIE}=`))
    ?.slice(CSRF_COOKIE.length + 1) ?? '';

/** The last answer of each read, by path: sent back as If-None-Match, kept when the server says 304. */
const remembered = new Map<string, { etag: string; data: unknown }>();

/** The last answer kept for a read, with its ETag: what another tab's poller shares, and keeps as its own. */
export const rememberedRead = (path: string) => remembered.get(path);
export const rememberRead = (path: string, etag: string, data: unknown) => remembered.set(path, { etag, data });

/** A call to the server's API through the console's session (`path` as the API has it: `/v1/...`, `/api/v1/...`). */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const known = method === 'GET' ? remembered.get(path) : undefined;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (known) headers['if-none-match'] = known.etag;
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken();
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`/console/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (response.status === 304 && known) return known.data as T;
  const text = await response.text();
  const data = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    if (response.status === 401) signedOut.dispatchEvent(new Event('signed-out'));
    // Problem details carry a 400's issues under `issues`, the other routes a 422's under `detail`.
    throw new ApiError(response.status, data?.issues ?? data?.detail ?? data?.message ?? response.statusText);
  }
  const etag = response.headers.get('etag');
  if (method === 'GET' && etag) remembered.set(path, { etag, data });
  return data as T;
}

/** The console's own session routes (sign in, who is signed in, sign out). */
export async function session(method: 'GET' | 'POST' | 'DELETE', body?: unknown): Promise<{ client_id: string; organization_id: string } | undefined> {
  const headers: Record<string, string> = { 'x-csrf-token': csrfToken() };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch('/console/session', {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (method === 'DELETE') remembered.clear();
  if (response.status === 204 || (method === 'GET' && response.status === 401)) return undefined;
  const data = await response.json();
  if (!response.ok) throw new ApiError(response.status, data.detail ?? response.statusText);
  return data;
}
