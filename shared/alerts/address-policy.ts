/**
 * Which addresses a webhook may reach (no server-side request forgery). The ranges come from
 * ipaddr.js; only its `unicast` (public) range passes, and loopback when the operator allows
 * it (ALERTS_ALLOW_LOOPBACK, tests and development). The API checks a URL's resolved addresses
 * when a rule is saved; the worker checks again at every connection (DNS rebinding).
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** What each refused range is, in the words a rule's owner sees. */
const RANGE_REASONS: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address (cloud metadata included)',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  uniqueLocal: 'a unique-local address (fc00::/7)',
  multicast: 'a multicast address',
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
};

/** Why `address` may not be reached (a sentence naming it), or undefined when it may. */
export function addressRefusal(address: string, allowLoopback: boolean): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    const inner = (parsed as ipaddr.IPv6).toIPv4Address().toString();
    return `${bare} is an IPv4-mapped address (of ${inner}), which is refused`;
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && allowLoopback) return undefined;
  return `${bare} is ${RANGE_REASONS[range] ?? `in the ${range} range`}, which is refused`;
}

/** The host of a URL as a resolver takes it: IPv6 literals without their brackets. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

export const isIpLiteral = (host: string): boolean => isIP(host) !== 0;

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Resolves a host name to every address (dns.lookup with `all`); tests inject their own. */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

/** The scheme rule: https in production, http too where allowed. Returns why not, or undefined. */
export function schemeRefusal(url: URL, requireHttps: boolean): string | undefined {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && !requireHttps) return undefined;
  return requireHttps ? 'must be an https: URL' : 'must be an http: or https: URL';
}

/**
 * Why this webhook URL may not be used (a sentence), or undefined. Every address the host
 * resolves to must pass: a name with one private address among public ones is refused.
 */
export async function urlRefusal(
  raw: string,
  options: { requireHttps: boolean; allowLoopback: boolean; resolve: Resolver },
): Promise<string | undefined> {
  const url = URL.parse(raw);
  if (!url) return 'is not a valid URL';
  const scheme = schemeRefusal(url, options.requireHttps);
  if (scheme) return scheme;
  if (url.username || url.password) return 'must not carry credentials';
  const host = urlHost(url);
  if (isIpLiteral(host)) return addressRefusal(host, options.allowLoopback);
  const addresses = await options.resolve(host).catch((): ResolvedAddress[] => []);
  if (addresses.length === 0) return `host ${host} does not resolve`;
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, options.allowLoopback);
    if (refusal) return `host ${host} resolves to ${refusal}`;
  }
  return undefined;
}
