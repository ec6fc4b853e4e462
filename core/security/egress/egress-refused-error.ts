import { isIP } from 'node:net';
import { BadRequestError } from '../../errors.ts';
import { unbracketed } from './address-ranges.ts';
import type { Endpoint } from './egress-policy.ts';

/**
 * A connection the egress policy refused: a 400 `egress_refused` naming the setting (at creation),
 * the host and port as configured, and the rule. `code` lets socket and HTTP libraries pass it on as a connect error.
 */
export class EgressRefusedError extends BadRequestError {
  readonly code = 'EGRESS_REFUSED';

  constructor(endpoint: Endpoint, rule: string, field?: string) {
    const host = unbracketed(endpoint.host);
    const target = `${isIP(host) === 6 ? `[${host}]` : host}:${endpoint.port}`;
    // The address a name resolved to stays out of the answer: a tenant could map the server's internal names with it.
    const what = rule.endsWith('host') ? `a ${rule}` : `${/^[aeiouIU]/.test(rule) ? 'an' : 'a'} ${rule} address`;
    super(
      `${field ? `${field}: ` : ''}connections to ${target} are refused: ${what}; the server's operator can open it with PLUGBOARD_EGRESS_ALLOW`,
      'egress_refused',
    );
    this.name = 'EgressRefusedError';
  }
}
