import type { Got, Response } from 'got';
import { bearer, type HostedFixture } from './hosted-fixture.ts';

/** The cookies a response set, by name: value and attributes as sent. */
export function setCookies(response: Response<string>): Map<string, { value: string; header: string }> {
  const cookies = new Map<string, { value: string; header: string }>();
  for (const header of response.headers['set-cookie'] ?? []) {
    const [pair] = header.split(';');
    const at = pair!.indexOf('=');
    cookies.set(pair!.slice(0, at), { value: pair!.slice(at + 1), header });
  }
  return cookies;
}

/** A signed-in console session over HTTP: its cookies, sent back as a browser would, and the CSRF token to echo. */
export interface ConsoleSession {
  cookie: string;
  csrf: string;
  token: string;
}

export async function signInToConsole(http: Got, clientId: string, clientSecret: string, origin: string): Promise<ConsoleSession> {
  const response = await http.post('console/session', { json: { client_id: clientId, client_secret: clientSecret }, headers: { origin } });
  if (response.statusCode !== 200) throw new Error(`console sign-in answered ${response.statusCode}: ${response.body}`);
  const cookies = setCookies(response);
  const token = cookies.get('plugboard_console')!.value;
  const csrf = cookies.get('plugboard_console_csrf')!.value;
  return { token, csrf, cookie: `plugboard_console=${token}; plugboard_console_csrf=${csrf}` };
}

/** A new application of the fixture's organization holding only workspace_reader in `workspaceId`: its credentials and user id. */
export async function workspaceReader(fx: HostedFixture, workspaceId: string): Promise<{ clientId: string; clientSecret: string; userId: string }> {
  const admin = await fx.operatorToken();
  const credentials = await fx.server.hosted.applications.create('local');
  const userId = (await fx.server.hosted.store.findApplicationByClientId(credentials.client_id))!.id;
  const own = JSON.parse((await fx.http.get(`v1/permissions?userId=${userId}`, { headers: bearer(admin) })).body).data[0];
  const given = await fx.http.post('v1/permissions', { headers: bearer(admin), json: { permissionType: 'workspace_reader', userId, workspaceId } });
  if (given.statusCode >= 300) throw new Error(`permission refused: ${given.body}`);
  await fx.http.delete(`v1/permissions/${own.permissionId}`, { headers: bearer(admin) });
  return { clientId: credentials.client_id, clientSecret: credentials.client_secret, userId };
}
