import type { Job } from 'bullmq';
import { keys, MISS_TTL_SECONDS, STATS_TTL_SECONDS } from '../../../../shared/keyspace.js';
import type { UsernameStats } from '../../../../shared/market-types.js';
import type { StatsJobData } from '../../../../shared/queues.js';
import { boundProviderText } from '../../../../shared/provider-text.js';
import { execChecked } from '../../../../shared/redis-results.js';
import type { JobContext } from './job-context.js';
import { storeFetched } from './store-fetched.js';

/**
 * One username's stats, stored as the response body with a 1-hour expiry; a username the
 * index does not know is remembered for 10 minutes so repeated misses cost the upstream nothing.
 */
export async function fetchStats(job: Job<StatsJobData>, { redis, provider, now }: JobContext): Promise<{ found: boolean }> {
  const { username } = job.data;
  const found = await provider.account(username);
  const account = found && boundProviderText(found);
  if (!account) {
    await storeFetched(() =>
      execChecked(redis.multi().set(keys.statsMiss(username), '1', 'EX', MISS_TTL_SECONDS).del(keys.stats(username))),
    );
    return { found: false };
  }
  const stats: UsernameStats = { ...account, cachedAt: now().toISOString() };
  await storeFetched(() =>
    execChecked(redis.multi().set(keys.stats(username), JSON.stringify(stats), 'EX', STATS_TTL_SECONDS).del(keys.statsMiss(username))),
  );
  return { found: true };
}
