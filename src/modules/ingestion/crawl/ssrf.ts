import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** A lookup function as `net.connect` takes it (`options.all` decides the callback's shape). */
export type LookupFunction = (
  hostname: string,
  options: { all?: boolean; family?: number | string; hints?: number },
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

const blocked = new BlockList();
const V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignment'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const V6: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'unique-local (private)'],
  ['fe80::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
];
const kinds: { list: BlockList; kind: string }[] = [];
for (const [net, prefix, kind] of V4) {
  const list = new BlockList();
  list.addSubnet(net, prefix, 'ipv4');
  blocked.addSubnet(net, prefix, 'ipv4');
  kinds.push({ list, kind });
}
for (const [net, prefix, kind] of V6) {
  const list = new BlockList();
  list.addSubnet(net, prefix, 'ipv6');
  blocked.addSubnet(net, prefix, 'ipv6');
  kinds.push({ list, kind });
}

/** The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`) or NAT64 (`64:ff9b::a.b.c.d`) IPv6 address. */
function embeddedV4(ip: string): string | null {
  if (isIP(ip) !== 6) return null;
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1); // URL canonicalizes IPv6 spelling
  const match = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!match) return null;
  const hi = parseInt(match[1]!, 16);
  const lo = parseInt(match[2]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Why an address must not be fetched (e.g. "loopback"), or null when it is a public address. */
export function forbiddenAddressKind(address: string): string | null {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 0) return null;
  if (family === 6) {
    const v4 = embeddedV4(ip);
    if (v4) return forbiddenAddressKind(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (!blocked.check(ip, type)) return null;
  return kinds.find((k) => k.list.check(ip, type))?.kind ?? 'private';
}

export class BlockedAddressError extends Error {
  readonly code = 'QUARRY_BLOCKED_ADDRESS';
  constructor(
    readonly hostname: string,
    readonly address: string,
    readonly kind: string,
  ) {
    super(
      `refused: ${hostname === address ? address : `${hostname} resolves to ${address}`}, a ${kind} address ` +
        '(set QUARRY_CRAWL_ALLOW_PRIVATE=true to crawl private networks)',
    );
    this.name = 'BlockedAddressError';
  }
}

/** Throws BlockedAddressError for a literal IP host that the guard forbids (they never reach `lookup`). */
export function assertLiteralHostAllowed(hostname: string) {
  const ip = hostname.replace(/^\[|\]$/g, '');
  if (!isIP(ip)) return;
  const kind = forbiddenAddressKind(ip);
  if (kind) throw new BlockedAddressError(ip, embeddedV4(ip) ?? ip, kind);
}

/**
 * Wraps a DNS lookup so every address a socket would connect to is checked first: the check runs
 * at connect time on the very answer used, so a DNS record that changes between checks (DNS
 * rebinding) cannot slip through. Any forbidden address in the answer refuses the whole host.
 */
export function guardedLookup(base: LookupFunction = dnsLookup as unknown as LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, { ...options, all: true }, (err, result) => {
      if (err) return callback(err, options.all ? [] : '');
      const addresses = result as LookupAddress[];
      for (const { address } of addresses) {
        const kind = forbiddenAddressKind(address);
        if (kind) return callback(new BlockedAddressError(hostname, address, kind) as NodeJS.ErrnoException, options.all ? [] : '');
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}
