/**
 * Which addresses a webhook may reach (no server-side request forgery). The ranges come from
 * ipaddr.js; only its `unicast` (public) range passes, and loopback when the operator allows
 * it (ALERTS_ALLOW_LOOPBACK, tests and development). The API checks a URL's resolved addresses
 * when a rule is saved; the worker checks again at every connection (DNS rebinding).
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * What each refused range is, in the words a rule's owner sees: the rule broken, never the address
 * (a refusal must not tell a client where an internal name points). Every range but `unicast`
 * (and loopback where allowed) is refused, these and any other ipaddr.js names.
 */
const RANGE_REASONS: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address (cloud metadata included)',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  uniqueLocal: 'a unique-local address (fc00::/7)',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address (0.0.0.0/8, ::/128)',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
  ipv4Mapped: 'an IPv4-mapped IPv6 address (::ffff:0:0/96)',
  rfc6145: 'an IPv4-translated IPv6 address (::ffff:0:0:0/96)',
  rfc6052: 'a NAT64 address (64:ff9b::/96, 64:ff9b:1::/48)',
  '6to4': 'a 6to4 address (2002::/16)',
  teredo: 'a Teredo address (2001::/32)',
  discard: 'a discard-only address (100::/64)',
  deprecatedSiteLocal: 'a site-local address (fec0::/10)',
};
/** ::/96 holds IPv4-compatible IPv6 addresses (::a9fe:a9fe is 169.254.169.254 to some stacks); ipaddr.js calls them unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** Why `address` may not be reached, as what it is (`a private address`), or undefined when it may. */
export function addressRefusal(address: string, allowLoopback: boolean): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return 'not an IP address';
  const parsed = ipaddr.parse(bare);
  const range = parsed.range();
  if (range === 'loopback' && allowLoopback) return undefined;
  if (range === 'unicast' && parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE)) return 'an IPv4-compatible IPv6 address (::/96)';
  if (range === 'unicast') return undefined;
  return RANGE_REASONS[range] ?? `an address in the ${range} range`;
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
 * Why this webhook URL may not be used (a sentence naming the rule broken, never an address), or
 * undefined. The one check of the API (at save and import) and the worker (before each attempt,
 * without `resolve`: the worker checks resolved addresses at connection). Every address the host
 * resolves to must pass: a name with one private address among public ones is refused.
 */
export async function urlRefusal(
  raw: string,
  options: { requireHttps: boolean; allowLoopback: boolean; resolve?: Resolver },
): Promise<string | undefined> {
  const url = URL.parse(raw);
  if (!url) return 'is not a valid URL';
  const scheme = schemeRefusal(url, options.requireHttps);
  if (scheme) return scheme;
  if (url.username || url.password) return 'must not carry credentials';
  const host = urlHost(url);
  if (isIpLiteral(host)) {
    const refusal = addressRefusal(host, options.allowLoopback);
    return refusal && `is ${refusal}, which is refused`;
  }
  if (!options.resolve) return undefined;
  const addresses = await options.resolve(host).catch((): ResolvedAddress[] => []);
  return resolvedRefusal(host, addresses, options.allowLoopback);
}

/** Why a host's resolved addresses may not be reached (naming the host, never an address), or undefined. */
export function resolvedRefusal(host: string, addresses: readonly ResolvedAddress[], allowLoopback: boolean): string | undefined {
  if (addresses.length === 0) return `host ${host} does not resolve`;
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, allowLoopback);
    if (refusal) return `host ${host} resolves to ${refusal}, which is refused`;
  }
  return undefined;
}
