/**
 * Lower-bound probes for `npm run bench:hosted-floor`: a bare node:http server (no Koa, tokens,
 * database or connector look-up) that answers `POST /` with `{"params": {...}}` for chat `users.list`
 * in one of three ways:
 *   relay        forwards the upstream's bytes untouched: no parse, the floor of any second hop;
 *   splice       parses the upstream answer, as a server that checks it must, then sends the records'
 *                own upstream bytes inside the execute envelope: no re-serialisation;
 *   reserialize  runs the in-process connector and serialises its envelope, as the hosted server does.
 * A measuring instrument, not a server to deploy: the splice probe finds the records by Slack's compact
 * layout instead of scanning the JSON, so its cost is a lower bound.
 *
 *   tsx scripts/hosted-floor-server.ts <relay|splice|reserialize> <chat sandbox url> <token>
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { text } from 'node:stream/consumers';
import got from 'got';
import { createRuntime } from '../index.ts';
import { jsonBytes } from '../server/json-bytes.ts';

const [mode, sandboxUrl, token] = process.argv.slice(2);
if (!['relay', 'splice', 'reserialize'].includes(mode ?? '') || !sandboxUrl || !token) {
  console.error('usage: hosted-floor-server.ts <relay|splice|reserialize> <chat sandbox url> <token>');
  process.exit(2);
}
const upstream = got.extend({ prefixUrl: sandboxUrl, headers: { authorization: `Bearer ${token}` }, retry: { limit: 0 } });
const chat = (await createRuntime()).connector('chat', { credentials: { token }, base_url: sandboxUrl });

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { params } = JSON.parse(await text(req)) as { params: { limit: number } };
  if (mode === 'reserialize') return send(res, [jsonBytes(await chat.users.list(params))]);
  const raw = (await upstream.get('users.list', { searchParams: { limit: params.limit } })).rawBody;
  if (mode === 'relay') return send(res, [raw]);
  const body = JSON.parse(raw.toString()) as { ok: boolean; response_metadata?: { next_cursor?: string } };
  if (!body.ok) throw new Error('upstream refused');
  const key = raw.indexOf('"members":') + '"members":'.length;
  const end = raw.indexOf('],"cache_ts":', key) + 1;
  if (key < '"members":'.length || end <= key) throw new Error('the sandbox answer no longer has the layout this probe assumes');
  const meta = { next_cursor: body.response_metadata?.next_cursor || null };
  send(res, [
    Buffer.from('{"status":"success","result":'),
    raw.subarray(key, end),
    Buffer.from(`,"connector_metadata":${JSON.stringify(meta)},"execution_metadata":{"connector_id":"chat","execution_time_ms":0}}`),
  ]);
}

function send(res: ServerResponse, parts: Buffer[]): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': parts.reduce((n, part) => n + part.length, 0) });
  res.cork();
  for (const part of parts) res.write(part);
  res.end();
  res.uncork();
}

const server = createServer((req, res) => {
  answer(req, res).catch((error: unknown) => {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(`${mode} floor server listening on http://127.0.0.1:${address.port}`);
});
process.once('SIGTERM', () => process.exit(0));
