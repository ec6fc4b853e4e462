import { isIP } from 'node:net';
import { BadRequestError } from '../../errors.ts';
import type { Endpoint } from './egress-policy.ts';

/**
 * A connection the egress policy refused: a 400 `egress_refused` naming the setting (at creation),
 * the address and the rule. `code` lets socket and HTTP libraries pass it on as a connect error.
 */
export class EgressRefusedError extends BadRequestError {
  readonly code = 'EGRESS_REFUSED';

  constructor(endpoint: Endpoint, address: string, rule: string, field?: string) {
    const host = endpoint.host.replace(/^\[|\]$/g, '');
    const target = `${isIP(host) === 6 ? `[${host}]` : host}:${endpoint.port}`;
    const resolved = host === address ? '' : ` (resolves to ${address})`;
    super(
      `${field ? `${field}: ` : ''}connections to ${target}${resolved} are refused: a ${rule} address; the server's operator can open it with PLUGBOARD_EGRESS_ALLOW`,
      'egress_refused',
    );
    this.name = 'EgressRefusedError';
  }
}
