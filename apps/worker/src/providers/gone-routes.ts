/**
 * Routes a provider has retired (docs/providers.md, "Routes that are gone"): not called for a
 * week, then once to see whether they came back; one warning line and one count per change
 * across every worker process (HSETNX).
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../../../../shared/logger.js';
import { providerKeys, type ProviderName } from '../../../../shared/provider-keys.js';
import type { CountFn } from '../counters.js';

/** How long a gone route is left alone before one call checks it again. */
export const GONE_RECHECK_MS = 7 * 86_400_000;

export interface GoneRoutes {
  isGone(path: string): Promise<boolean>;
  markGone(path: string, status: number): Promise<void>;
}

export function goneRoutes(
  provider: ProviderName,
  redis: Redis,
  logger: Logger,
  count: CountFn,
  now: () => Date = () => new Date(),
): GoneRoutes {
  const field = (path: string) => `${provider} ${path}`;
  return {
    async isGone(path) {
      const raw = await redis.hget(providerKeys.goneRoutes(), field(path));
      if (!raw) return false;
      const { since } = JSON.parse(raw) as { since: string };
      if (Date.parse(since) + GONE_RECHECK_MS > now().getTime()) return true;
      await redis.hdel(providerKeys.goneRoutes(), field(path));
      return false;
    },
    async markGone(path, status) {
      const entry = JSON.stringify({ since: now().toISOString(), status });
      if ((await redis.hsetnx(providerKeys.goneRoutes(), field(path), entry)) === 0) return;
      count('provider_route_gone', provider, path);
      logger.warn(
        { provider, path, status },
        `${provider}: ${path} answered HTTP ${status}: the route is gone; not called for 7 days, the stats are computed without it`,
      );
    },
  };
}
