/**
 * npm run widget:demo: the embedded widget's whole flow on one machine. Starts the Slack and Drive
 * sandboxes, the hosted server (a fresh data directory, source templates made) and a sample operator
 * page on a second local port; open that page in a browser and connect a source through the widget.
 *
 *   PORT (default 8080): the server; OPERATOR_PORT (default 8081): the operator page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SlackSandbox } from '../connectors/chat/sandbox/index.ts';
import { DriveSandbox } from '../connectors/file-storage/sandbox/index.ts';
import { configFromEnv } from '../server/config.ts';
import { startServer } from '../server/start.ts';
import { startOperatorPage } from './operator-page.ts';

const CHAT_TOKEN = 'xoxb-widget-demo';
const DRIVE_TOKEN = 'ya29.widget-demo';
const port = Number(process.env.PORT ?? 8080);
const operatorPort = Number(process.env.OPERATOR_PORT ?? 8081);
const serverUrl = `http://127.0.0.1:${port}`;

const dataDir = mkdtempSync(join(tmpdir(), 'plugboard-widget-demo-'));
const chat = await SlackSandbox.start({ token: CHAT_TOKEN, users: 40, channels: 12, messagesPerChannel: 30 });
const drive = await DriveSandbox.start({ token: DRIVE_TOKEN });
// Everything runs on this machine: loopback opened to what tenants configure, explicitly.
const config = configFromEnv({
  HOST: '127.0.0.1',
  PORT: String(port),
  PLUGBOARD_DATA_DIR: dataDir,
  PLUGBOARD_PUBLIC_URL: serverUrl,
  PLUGBOARD_EGRESS_ALLOW: process.env.PLUGBOARD_EGRESS_ALLOW ?? '127.0.0.0/8,::1,localhost',
});
const server = await startServer(
  {
    ...config,
    baseUrls: () => ({ chat: chat.url, 'file-storage': drive.url }),
    // "Connect with Slack / Google": the sandboxes' consent pages and token endpoints stand in for the providers'.
    oauthUrls: () => ({
      chat: { authorizeUrl: chat.authorizeUrl, tokenUrl: chat.tokenUrl },
      'file-storage': { authorizeUrl: drive.authorizeUrl, tokenUrl: drive.tokenUrl },
    }),
  },
  { env: {} },
);
const { client_id, client_secret } = server.firstApplication!;

const post = async (path: string, body: unknown, token?: string) => {
  const response = await fetch(`${serverUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, string>;
};
const { access_token } = await post('/api/v1/account/applications/token', { client_id, client_secret });
await post('/api/v1/integrations/templates/sources', { name: 'Team chat', connector_type: 'chat', tags: ['chat'] }, access_token);
await post('/api/v1/integrations/templates/sources', { name: 'Shared files', connector_type: 'file-storage', tags: ['files'] }, access_token);
// The organization's OAuth apps (the sandboxes take any client).
const { organizationId } = (
  (await (await fetch(`${serverUrl}/v1/organizations`, { headers: { authorization: `Bearer ${access_token}` } })).json()) as {
    data: Array<{ organizationId: string }>;
  }
).data[0]!;
for (const name of ['slack', 'google-drive']) {
  const registered = await fetch(`${serverUrl}/v1/organizations/${organizationId}/oauthCredentials`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
    body: JSON.stringify({ actorType: 'source', name, configuration: { credentials: { client_id: `demo-${name}`, client_secret: `demo-${name}-secret` } } }),
  });
  if (!registered.ok) throw new Error(`registering the ${name} OAuth app answered ${registered.status}: ${await registered.text()}`);
}
const page = await startOperatorPage({
  plugboardUrl: serverUrl,
  clientId: client_id!,
  clientSecret: client_secret!,
  workspaceName: 'demo-workspace',
  port: operatorPort,
});

console.log(`Plugboard widget demo
  server:         ${serverUrl} (data in ${dataDir}, removed on exit)
  operator page:  ${page.url}  <- open this in a browser, then "Connect your data"
  "Connect with Slack / Google" opens the sandboxes' consent pages: press Allow.
  tokens to paste instead ("Use a token instead"; the sandboxes accept only these):
    Team chat:    ${CHAT_TOKEN}
    Shared files: ${DRIVE_TOKEN}
  ${page.url}/?tags=chat offers only the chat template; ?tags=chat,files&mode=all offers none.
Ctrl+C stops everything.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await page.close();
  await server.close();
  await chat.close();
  await drive.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
