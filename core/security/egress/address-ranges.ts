import { BlockList, isIP } from 'node:net';

/** One class of addresses the default policy refuses, and the words a refusal names it by. */
export interface RefusedRange {
  rule: string;
  subnets: [address: string, prefix: number][];
}

/**
 * What a tenant's configuration may not reach unless the operator opens it: the machine itself, its
 * networks, and addresses that are no single host. IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is matched
 * against the IPv4 ranges by `BlockList` itself.
 */
export const REFUSED_RANGES: RefusedRange[] = [
  {
    rule: 'loopback',
    subnets: [
      ['127.0.0.0', 8],
      ['::1', 128],
    ],
  },
  {
    rule: 'unspecified',
    subnets: [
      ['0.0.0.0', 8],
      ['::', 128],
    ],
  },
  // 169.254.169.254 is the cloud metadata service (credentials of the machine's own role).
  {
    rule: 'link-local (including the cloud metadata address)',
    subnets: [
      ['169.254.0.0', 16],
      ['fe80::', 10],
    ],
  },
  {
    rule: 'private',
    subnets: [
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
      ['100.64.0.0', 10],
    ],
  },
  {
    rule: 'unique-local',
    subnets: [
      ['fc00::', 7],
      ['fec0::', 10],
    ],
  },
  // IPv6 forms carrying an IPv4 address that a gateway or tunnel delivers to (NAT64's 64:ff9b::a9fe:a9fe is
  // the metadata address): NAT64, 6to4, Teredo, IPv4-compatible and IPv4-translated.
  {
    rule: 'IPv4-embedding IPv6',
    subnets: [
      ['64:ff9b::', 96],
      ['64:ff9b:1::', 48],
      ['2002::', 16],
      ['2001::', 32],
      ['::', 96],
      ['::ffff:0:0:0', 96],
    ],
  },
  {
    rule: 'multicast',
    subnets: [
      ['224.0.0.0', 4],
      ['ff00::', 8],
    ],
  },
  // Protocol assignments, benchmarking, documentation, and the rest of class E (broadcast included).
  {
    rule: 'reserved',
    subnets: [
      ['240.0.0.0', 4],
      ['192.0.0.0', 24],
      ['198.18.0.0', 15],
      ['192.0.2.0', 24],
      ['198.51.100.0', 24],
      ['203.0.113.0', 24],
      ['2001:db8::', 32],
    ],
  },
];

/** A list of subnets that tells whether an address is in one of them. */
export function subnetList(subnets: [address: string, prefix: number][]): BlockList {
  const list = new BlockList();
  for (const [address, prefix] of subnets) list.addSubnet(address, prefix, familyOf(address));
  return list;
}

export function familyOf(address: string): 'ipv4' | 'ipv6' {
  const family = isIP(address);
  if (family === 0) throw new Error(`not an IP address: ${address}`);
  return family === 4 ? 'ipv4' : 'ipv6';
}

const COMPILED = REFUSED_RANGES.map((range) => ({ rule: range.rule, list: subnetList(range.subnets) }));

/** The rule that refuses an IP address by default, or undefined for a public one. */
export function refusedRangeOf(address: string): string | undefined {
  const family = familyOf(address);
  return COMPILED.find((range) => range.list.check(address, family))?.rule;
}

/** `[::1]` as `::1`: brackets only as a pair around the whole. */
export function unbracketed(host: string): string {
  return /^\[[^[\]]*\]$/.test(host) ? host.slice(1, -1) : host;
}
