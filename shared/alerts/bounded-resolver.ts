/**
 * Resolves webhook hosts with c-ares (`dns.promises.Resolver`), not `dns.lookup`: lookup runs on
 * libuv's 4-thread pool, so four slow attacker names stall every user's deliveries (and the
 * file system). Here each lookup is bounded in time (timeout per try, tries, and a deadline over
 * all), lookups of one name in flight are shared, and the names in flight at once are limited;
 * a slow name delays only the rules that use it. `localhost` is loopback without a query
 * (RFC 6761), so ALERTS_ALLOW_LOOPBACK works without /etc/hosts.
 */
import { Resolver as DnsResolver } from 'node:dns/promises';
import type { ResolvedAddress, Resolver } from './address-policy.js';

export interface BoundedResolverOptions {
  /** The deadline of one lookup, all tries included (ms). */
  timeoutMs: number;
  /** Names being resolved at once; a name past it waits for a slot, within its own deadline. Default 64. */
  concurrency?: number;
  /** The query itself (tests inject one; never real DNS in tests). Default c-ares A and AAAA. */
  query?: Resolver;
}

class LookupTimeoutError extends Error {
  override readonly name = 'LookupTimeoutError';
}

function caresQuery(timeoutMs: number): Resolver {
  const dns = new DnsResolver({ timeout: Math.max(100, Math.floor(timeoutMs / 2)), tries: 2 });
  return async (host) => {
    const [v4, v6] = await Promise.allSettled([dns.resolve4(host), dns.resolve6(host)]);
    const addresses: ResolvedAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length === 0 && v4.status === 'rejected') throw v4.reason;
    return addresses;
  };
}

export function boundedResolver(options: BoundedResolverOptions): Resolver {
  const query = options.query ?? caresQuery(options.timeoutMs);
  const concurrency = options.concurrency ?? 64;
  const inFlight = new Map<string, Promise<ResolvedAddress[]>>();
  const waiting: (() => void)[] = [];
  let running = 0;

  const slot = () => (running < concurrency ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)));
  const run = async (host: string): Promise<ResolvedAddress[]> => {
    await slot();
    running += 1;
    try {
      return await query(host);
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };

  return (host) => {
    const name = host.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) {
      return Promise.resolve([
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ]);
    }
    let lookup = inFlight.get(name);
    if (!lookup) {
      lookup = run(name).finally(() => inFlight.delete(name));
      inFlight.set(name, lookup);
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LookupTimeoutError(`looking up ${name} took over ${options.timeoutMs} ms`)), options.timeoutMs);
    });
    return Promise.race([lookup, deadline]).finally(() => clearTimeout(timer));
  };
}
