import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { REFUSED_RANGES, refusedRangeOf, unbracketed } from './address-ranges.ts';
import { type AllowEntry, compileAllowList, parseAllowList } from './egress-allow-list.ts';
import { EgressRefusedError } from './egress-refused-error.ts';

/** Where a connection goes: the name a configuration gave, and the port. */
export interface Endpoint {
  host: string;
  port: number;
}

/**
 * The one rule for every connection made on a tenant's behalf (connector upstreams, destinations,
 * webhooks, OAuth endpoints): addresses are judged after DNS resolution, at connect time, so a name
 * that resolves to loopback, a rebinding name or an odd spelling of an address gets no further than
 * `127.0.0.1` would. The ranges of REFUSED_RANGES are refused unless PLUGBOARD_EGRESS_ALLOW opens them.
 */
export class EgressPolicy {
  private readonly allows: (host: string, address: string | undefined, port: number) => boolean;

  constructor(readonly allowList: AllowEntry[] = []) {
    this.allows = compileAllowList(allowList);
  }

  /** This policy with `entries` (allow-list syntax) opened too: an operator's own endpoint, say. */
  opening(entries: string): EgressPolicy {
    return new EgressPolicy([...this.allowList, ...parseAllowList(entries)]);
  }

  /** The policy of PLUGBOARD_EGRESS_ALLOW's value; a malformed entry throws, naming it. */
  static fromSetting(value: string | undefined): EgressPolicy {
    return new EgressPolicy(parseAllowList(value));
  }

  /** Why `address` (reached as `host`) on `port` is refused, or undefined when it may be reached. */
  refusalOf(endpoint: Endpoint, address: string): string | undefined {
    if (this.allows(endpoint.host, address, endpoint.port)) return undefined;
    return refusedRangeOf(address);
  }

  /**
   * Resolves an endpoint and judges every address it resolves to: the first is answered, to connect
   * to as it is (a second resolution could answer otherwise). `field` names the setting in the error.
   */
  async resolve(endpoint: Endpoint, field?: string): Promise<string> {
    const host = unbracketed(endpoint.host);
    // An empty name resolves to nothing, which judges as nothing wrong: a client would then fall back to its default host.
    if (!HOST.test(host)) throw new EgressRefusedError(endpoint, 'malformed host', field);
    const addresses = isIP(host) ? [host] : await lookupAll(host);
    if (addresses.length === 0) throw new EgressRefusedError(endpoint, 'unresolvable host', field);
    this.judge(endpoint, addresses, field);
    return addresses[0]!;
  }

  /**
   * What a check of a URL at creation time can tell: an address, or a name that resolves, is judged;
   * a name that does not resolve (yet) is left to the check at connect time.
   */
  async checkUrl(url: string, field: string): Promise<void> {
    await this.resolve(endpointOfUrl(url), field).catch((error: unknown) => {
      if (error instanceof EgressRefusedError) throw error;
    });
  }

  /** A `lookup` for sockets: the resolution judged before the socket connects to it. */
  lookupFor(endpoint: Endpoint): LookupFunction {
    return (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
        if (error) return callback(error, '', 0);
        try {
          this.judge(
            endpoint,
            found.map((entry) => entry.address),
          );
        } catch (refused) {
          return callback(refused as NodeJS.ErrnoException, '', 0);
        }
        if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, found);
        callback(null, found[0]!.address, found[0]!.family);
      });
    };
  }

  /** What a start prints: the ranges refused and what the operator opened. */
  describe(): string {
    const opened = this.allowList.length ? this.allowList.map((entry) => entry.text).join(', ') : 'nothing';
    const rules = REFUSED_RANGES.map((range) => range.rule.replace(/ \(.*\)$/, ''));
    return `egress policy: ${rules.join(', ')} addresses refused; PLUGBOARD_EGRESS_ALLOW opens ${opened}`;
  }

  private judge(endpoint: Endpoint, addresses: string[], field?: string): void {
    for (const address of addresses) {
      const rule = this.refusalOf(endpoint, address);
      if (rule) throw new EgressRefusedError(endpoint, rule, field);
    }
  }
}

/** Where an http(s) URL connects: its host, and its port or the scheme's default. */
export function endpointOfUrl(url: string): Endpoint {
  const { hostname, port, protocol } = new URL(url);
  return { host: hostname, port: Number(port || (protocol === 'https:' ? 443 : 80)) };
}

/** A host name, or an IPv4 or (unbracketed) IPv6 address: letters, digits and `.-_:%`, nothing empty. */
const HOST = /^[A-Za-z0-9._:%-]+$/;

function lookupAll(host: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found.map((entry) => entry.address)))),
  );
}
