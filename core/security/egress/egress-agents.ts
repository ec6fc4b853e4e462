import { Agent as HttpAgent, type AgentOptions } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { unbracketed } from './address-ranges.ts';
import type { EgressPolicy } from './egress-policy.ts';
import { EgressRefusedError } from './egress-refused-error.ts';

type ConnectOptions = { host?: string | null; hostname?: string | null; port?: number | string | null } & Record<string, unknown>;
type Created = (error: Error | null, socket?: Duplex) => void;

/**
 * Keep-alive agents whose every new socket obeys the policy: an address in the URL (however spelt:
 * the URL parser has made `0x7f000001` into `127.0.0.1`) is judged before connecting, a name through
 * the socket's `lookup`. Redirects go through the same agents, so they are judged too.
 */
export function egressAgents(policy: EgressPolicy, options: AgentOptions = { keepAlive: true }): { http: HttpAgent; https: HttpsAgent } {
  return { http: new (guarded(HttpAgent, policy))(options), https: new (guarded(HttpsAgent, policy))(options) };
}

/** One pair of guarded agents per policy, shared by every connection made under it (keep-alive sockets). */
const SHARED = new WeakMap<EgressPolicy, { http: HttpAgent; https: HttpsAgent }>();

/** The policy's shared guarded agents: connector instances and token requests under one policy reuse their sockets. */
export function sharedEgressAgents(policy: EgressPolicy): { http: HttpAgent; https: HttpsAgent } {
  let agents = SHARED.get(policy);
  if (!agents) {
    agents = egressAgents(policy);
    SHARED.set(policy, agents);
  }
  return agents;
}

function guarded<A extends typeof HttpAgent | typeof HttpsAgent>(Base: A, policy: EgressPolicy): A {
  const defaultPort = Base === HttpsAgent ? 443 : 80;
  return class extends Base {
    createConnection(options: ConnectOptions, created: Created): Socket | undefined {
      const host = unbracketed(String(options.host ?? options.hostname ?? 'localhost'));
      const endpoint = { host, port: Number(options.port ?? defaultPort) };
      if (isIP(host)) {
        const rule = policy.refusalOf(endpoint, host);
        if (rule) {
          const refused = new EgressRefusedError(endpoint, rule);
          process.nextTick(() => created(refused));
          return undefined;
        }
        return super.createConnection(options, created);
      }
      return super.createConnection({ ...options, lookup: policy.lookupFor(endpoint) }, created);
    }
  };
}
