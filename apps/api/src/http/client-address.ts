/**
 * The client a per-address limit counts (the login throttle, the stats miss budget, the
 * connection and event stream caps): one IPv4 address, or one IPv6 subnet. A single IPv6 host
 * is usually handed a whole /64, so counting raw IPv6 addresses gave one client 2^64 budgets;
 * an IPv4-mapped address (`::ffff:192.0.2.1`, what a dual-stack socket reports for an IPv4
 * peer) is the IPv4 address it maps.
 *
 * The result is short whatever comes in: an address that is no IP (a proxy's odd
 * X-Forwarded-For) is reduced to a fixed-length digest, so a limit's Redis key stays bounded.
 */
import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/** How IPv6 addresses are grouped by default: the /64 a host or a LAN usually gets. */
export const DEFAULT_IPV6_PREFIX = 64;

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 part included). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, -dotted[1]!.length);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const [head = '', rest] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = parse(head);
  const right = [...(rest === undefined ? [] : parse(rest)), ...tail];
  const zeros = rest === undefined ? [] : Array<number>(8 - left.length - right.length).fill(0);
  return rest === undefined ? [...left, ...tail] : [...left, ...zeros, ...right];
}

/**
 * `address` as a limit counts it: an IPv4 address as is, an IPv4-mapped IPv6 address as its
 * IPv4 address, any other IPv6 address as its `/ipv6Prefix` network (`2001:db8:0:1::/64`), and
 * anything else as `other:` + a digest.
 */
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
  return `${compress(masked)}/${ipv6Prefix}`;
}

/** RFC 5952's text form: lower case, the longest run of zero groups (two or more) as `::`. */
function compress(groups: number[]): string {
  let bestAt = -1;
  let bestLength = 1;
  for (let i = 0; i < groups.length;) {
    let j = i;
    while (j < groups.length && groups[j] === 0) j += 1;
    if (j - i > bestLength) [bestAt, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestAt === -1) return hex.join(':');
  return `${hex.slice(0, bestAt).join(':')}::${hex.slice(bestAt + bestLength).join(':')}`;
}
