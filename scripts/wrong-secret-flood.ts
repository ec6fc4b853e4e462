/**
 * A wrong-secret flood against the application-token endpoint, in a process of its own so that its
 * event loop does not slow the benchmark's real clients: `tsx scripts/wrong-secret-flood.ts <server url>
 * <client id> <callers> <seconds>`. Sends from 127.0.0.2 (an attacker is not at the real client's
 * address), prints `flooding` once under way, and at the end one JSON line: attempts per second and
 * the count of each status answered.
 */
import got from 'got';
import { untilDeadline } from './bench-support.ts';

const [serverUrl, clientId, callers, seconds] = process.argv.slice(2);
const attacker = got.extend({ prefixUrl: serverUrl!, localAddress: '127.0.0.2', throwHttpErrors: false, retry: { limit: 0 } });
const statuses: Record<number, number> = {};
console.log('flooding');
const attempts = await untilDeadline(Number(callers), Number(seconds) * 1000, async () => {
  const response = await attacker.post('api/v1/account/applications/token', { json: { client_id: clientId, client_secret: 'wrong-secret' } });
  statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
});
console.log(JSON.stringify({ attemptsPerSecond: attempts / Number(seconds), statuses }));
