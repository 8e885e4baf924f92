/**
 * The client a per-address limit counts (docs/decisions.md#d12): an IPv4 address, or an IPv6
 * network. The result is short whatever comes in, so a limit's Redis key stays bounded.
 */
import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/** The /64 a host or a LAN usually gets. */
export const DEFAULT_IPV6_PREFIX = 64;

/** An IPv6 address in the URL parser's canonical text (RFC 5952, an IPv4 tail as two hex groups). */
const canonicalIPv6 = (address: string) => new URL(`http://[${address}]`).hostname.slice(1, -1);

/** The eight 16-bit groups of a valid IPv6 address. */
function ipv6Groups(address: string): number[] {
  const [head, tail] = canonicalIPv6(address).split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** An IPv4 (or IPv4-mapped) address as IPv4, an IPv6 one as its network (`2001:db8:0:1::/64`), anything else `other:` + a digest. */
export function clientGroup(address: string, ipv6Prefix: number = DEFAULT_IPV6_PREFIX): string {
  if (isIPv4(address)) return address;
  const bare = address.replace(/%.*$/, ''); // a zone index (fe80::1%eth0) names the interface, not the peer
  if (!isIPv6(bare)) return `other:${createHash('sha256').update(address).digest('hex').slice(0, 32)}`;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  const masked = groups.map((group, i) => {
    const bits = Math.min(16, Math.max(0, ipv6Prefix - i * 16));
    return bits === 0 ? 0 : group & (0xffff << (16 - bits)) & 0xffff;
  });
  return `${canonicalIPv6(masked.map((group) => group.toString(16)).join(':'))}/${ipv6Prefix}`;
}
