import type { Got, Response } from 'got';

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
