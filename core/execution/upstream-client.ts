import type { UpstreamClient } from '../sdk/index.ts';
import type { HttpTransport } from '../transport/http-transport.ts';

/** The client an action's hooks call upstream with: the instance's own transport, so auth, retries and error mapping are the action's. */
export function upstreamClient(transport: HttpTransport): UpstreamClient {
  return {
    requestJson: (call, params) => transport.requestJson({ call, params, idempotent: call.method === 'GET' }),
  };
}
