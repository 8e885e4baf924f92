/**
 * `npm run redis:migrate -- --from <redis-url> [--to <redis-url> | --to-cluster host:port,...] [--replace]`
 * (in production, after `npm run build`: `node dist/scripts/redis-migrate.js ...`).
 *
 * Copies what must survive from the key names used before the Cluster layout (untagged:
 * `ms:user:<email>`, `ms:history:token:<T>` ...) to the names of shared/keyspace.ts: users, API
 * keys, history, the snapshots (so reads are served at once), and the providers' state. The
 * target is the service's own Redis configuration (REDIS_URL, REDIS_SENTINELS or
 * REDIS_CLUSTER_NODES) unless --to or --to-cluster names another. The source may be the same
 * Redis (a single node moving to the new names in place).
 *
 * Each key is copied with DUMP/RESTORE, its time to live kept. A key already present at the
 * target is left as it is (--replace overwrites it), so running the command twice copies
 * nothing the second time and never undoes what the new deployment wrote. The old keys stay
 * where they are. Not copied: caches (stats, misses), counters and budgets, which rebuild by
 * themselves, and BullMQ's jobs (README, "Moving to Redis Cluster").
 */
import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { ConfigError, loadConfig } from '../shared/config.js';
import { keys } from '../shared/keyspace.js';
import { historyKeys, snapshotKeys } from '../shared/snapshot-keys.js';
import { SERIES_OWNER, SNAPSHOT_KINDS, SNAPSHOTS, type SeriesName, type SnapshotName } from '../shared/snapshot-kinds.js';
import { createRedis, waitForReplicas } from '../shared/redis.js';

const USAGE = 'usage: redis:migrate --from <redis-url> [--to <redis-url> | --to-cluster host:port,...] [--replace]';

type Family = 'users' | 'api keys' | 'history' | 'snapshots' | 'provider state';

/** The name a key of the old layout has now, and what it is; undefined for what is not copied. */
function newNameOf(old: string): { key: string; family: Family } | undefined {
  const rest = (prefix: string) => (old.startsWith(prefix) ? old.slice(prefix.length) : undefined);
  if (old === 'ms:users') return { key: keys.users(), family: 'users' };
  let id: string | undefined;
  if ((id = rest('ms:user:')) !== undefined) return { key: keys.user(id), family: 'users' };
  if ((id = rest('ms:api-key:')) !== undefined) return { key: keys.apiKey(id), family: 'api keys' };
  if ((id = rest('ms:api-key-id:')) !== undefined) return { key: keys.apiKeyId(id), family: 'api keys' };
  if ((id = rest('ms:user-api-keys:')) !== undefined) return { key: keys.userApiKeys(id), family: 'api keys' };
  if ((id = rest('ms:provider:')) !== undefined) return { key: old, family: 'provider state' };
  if ((id = rest('ms:snapshot:')) !== undefined) {
    const version = id.endsWith(':version');
    const name = (version ? id.slice(0, -':version'.length) : id) as SnapshotName;
    if (!(SNAPSHOTS as readonly string[]).includes(name)) return undefined;
    return { key: version ? snapshotKeys.version(name) : snapshotKeys.snapshot(name), family: 'snapshots' };
  }
  if ((id = rest('ms:history:')) !== undefined) {
    if (id === 'trending-times') return { key: historyKeys.trendingTimes(), family: 'history' };
    if (id === 'news-ids') return { key: historyKeys.newsIds(), family: 'history' };
    const colon = id.indexOf(':');
    const series = id.slice(0, colon) as SeriesName;
    if (colon > 0 && Object.hasOwn(SERIES_OWNER, series)) return { key: historyKeys.series(series, id.slice(colon + 1)), family: 'history' };
    const kind = SNAPSHOTS.find((name) => SNAPSHOT_KINDS[name].events === id);
    if (kind) return { key: historyKeys.events(kind), family: 'history' };
  }
  return undefined;
}

interface MigrationCounts {
  copied: Record<Family, number>;
  /** Already at the target: left as they were. */
  present: number;
  /** Old keys that are not copied (caches, counters, budgets). */
  skipped: number;
}

/** Copies every old-layout key of `source` to its new name at `target`. */
async function migrate(source: Redis, target: Redis, replace: boolean): Promise<MigrationCounts> {
  const counts: MigrationCounts = {
    copied: { users: 0, 'api keys': 0, history: 0, snapshots: 0, 'provider state': 0 },
    present: 0,
    skipped: 0,
  };
  let cursor = '0';
  do {
    const [next, found] = await source.scan(cursor, 'MATCH', 'ms:*', 'COUNT', 500);
    cursor = next;
    for (const old of found) {
      const to = newNameOf(old);
      if (!to) {
        // New-layout keys (a second run on the same Redis) and keys that rebuild themselves.
        if (!old.startsWith('ms:{')) counts.skipped += 1;
        continue;
      }
      const [dump, ttl] = await Promise.all([source.dumpBuffer(old), source.pttl(old)]);
      if (dump === null) continue; // expired meanwhile
      const args: (string | number | Buffer)[] = [to.key, ttl > 0 ? ttl : 0, dump];
      if (replace) args.push('REPLACE');
      try {
        await target.call('RESTORE', ...args);
        counts.copied[to.family] += 1;
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('BUSYKEY')) throw error;
        counts.present += 1;
      }
    }
  } while (cursor !== '0');
  return counts;
}

function targetEnvironment(values: { to?: string; 'to-cluster'?: string }): NodeJS.ProcessEnv {
  if (values.to && values['to-cluster']) throw new ConfigError(`--to and --to-cluster exclude each other; ${USAGE}`);
  if (values.to) return { ...process.env, REDIS_URL: values.to, REDIS_SENTINELS: '', REDIS_CLUSTER_NODES: '' };
  if (values['to-cluster']) return { ...process.env, REDIS_URL: '', REDIS_SENTINELS: '', REDIS_CLUSTER_NODES: values['to-cluster'] };
  return process.env;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { from: { type: 'string' }, to: { type: 'string' }, 'to-cluster': { type: 'string' }, replace: { type: 'boolean' } },
  });
  if (!values.from || !/^rediss?:\/\//.test(values.from)) throw new ConfigError(`--from <redis-url> is required; ${USAGE}`);
  const config = loadConfig(targetEnvironment(values));
  const source = createRedis({ redisUrl: values.from, redisTlsInsecure: config.redisTlsInsecure }, 'worker', 'migrate-source');
  const target = createRedis(config, 'worker', 'migrate-target');
  try {
    const counts = await migrate(source, target, values.replace ?? false);
    // Reported done only once the replicas have it: a failover must not lose the users.
    await waitForReplicas(target);
    const copied = Object.entries(counts.copied).map(([family, n]) => `${family} ${n}`).join(', ');
    const total = Object.values(counts.copied).reduce((sum, n) => sum + n, 0);
    process.stdout.write(`copied ${total} keys (${copied}); ${counts.present} already present, left as they were; ${counts.skipped} not copied (caches, counters)\n`);
  } finally {
    await Promise.all([source.quit().catch(() => source.disconnect()), target.quit().catch(() => target.disconnect())]);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`redis:migrate: ${message.split('\n')[0]}\n`);
  process.exit(1);
});
