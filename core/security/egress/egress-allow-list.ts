import { isIP } from 'node:net';
import { familyOf, subnetList, unbracketed } from './address-ranges.ts';

/** One entry of PLUGBOARD_EGRESS_ALLOW: a CIDR or address, or a host name, each with an optional port. */
export interface AllowEntry {
  text: string;
  /** An address range (a bare address is its own /32 or /128). */
  subnet?: [address: string, prefix: number];
  /** A host name as a configuration spells it (lower case). */
  host?: string;
  port?: number;
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*\.?$/;

/**
 * Parses PLUGBOARD_EGRESS_ALLOW: entries separated by commas or spaces, each `host`, `host:port`,
 * `address`, `address:port`, `[v6address]:port` or `cidr`. A malformed entry throws, naming it.
 */
export function parseAllowList(value: string | undefined): AllowEntry[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(parseEntry);
}

function parseEntry(text: string): AllowEntry {
  const cidr = /^([^/]+)\/(\d{1,3})$/.exec(text);
  if (cidr) {
    const [, address, prefix] = cidr as unknown as [string, string, string];
    const family = isIP(address);
    const bits = Number(prefix);
    if (family === 0 || bits > (family === 4 ? 32 : 128)) throw invalidEntry(text, 'not a CIDR range');
    return { text, subnet: [address, bits] };
  }
  const { name, port } = splitPort(text);
  if (isIP(name)) return { text, subnet: [name, familyOf(name) === 'ipv4' ? 32 : 128], ...(port === undefined ? {} : { port }) };
  const host = name.toLowerCase();
  if (!HOST_NAME.test(host)) throw invalidEntry(text, 'not a host name, address or CIDR range');
  return { text, host: host.replace(/\.$/, ''), ...(port === undefined ? {} : { port }) };
}

function splitPort(text: string): { name: string; port?: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return { name: bracketed[1]!, port: portOf(text, bracketed[2]) };
  // A bare IPv6 address has colons of its own and no port.
  if (isIP(text) === 6) return { name: text };
  const withPort = /^(.+):(\d+)$/.exec(text);
  return withPort ? { name: withPort[1]!, port: portOf(text, withPort[2]) } : { name: text };
}

function portOf(text: string, digits: string | undefined): number | undefined {
  if (digits === undefined) return undefined;
  const port = Number(digits);
  if (port < 1 || port > 65535) throw invalidEntry(text, 'port out of range');
  return port;
}

function invalidEntry(text: string, why: string): Error {
  return new Error(`PLUGBOARD_EGRESS_ALLOW: ${JSON.stringify(text)} is ${why}`);
}

/** Whether the allow list opens a connection to `address` (reached as `host`) on `port`. */
export function compileAllowList(entries: AllowEntry[]): (host: string, address: string | undefined, port: number) => boolean {
  const byPort = (entry: AllowEntry, port: number) => entry.port === undefined || entry.port === port;
  const ranges = entries.filter((entry) => entry.subnet).map((entry) => ({ entry, list: subnetList([entry.subnet!]) }));
  const hosts = entries.filter((entry) => entry.host);
  return (host, address, port) => {
    const name = unbracketed(host).toLowerCase().replace(/\.$/, '');
    if (hosts.some((entry) => entry.host === name && byPort(entry, port))) return true;
    if (address === undefined) return false;
    const family = familyOf(address);
    return ranges.some(({ entry, list }) => byPort(entry, port) && list.check(address, family));
  };
}
