/**
 * `npm run redis:migrate -- --from <redis-url> [--to <redis-url> | --to-cluster host:port,...] [--replace] [--follow-deletions]`
 * (in production: `node dist/scripts/redis-migrate.js ...`): copies what must survive from the
 * untagged key names of before the Cluster layout (`ms:user:<email>`, `ms:history:token:<T>` ...)
 * to those of shared/keyspace.ts with DUMP/RESTORE, time to live kept, to the service's own Redis
 * unless --to or --to-cluster names another. What is copied and what is not, and how a later run
 * honours what changed since (the ledger, keys.migrationLedger; --replace; --follow-deletions):
 * README, "Moving to Redis Cluster". Why a ledger rather than moving the keys: between the runs
 * the old deployment still serves from the old names, so they must stay; and rather than
 * tombstones, because the ledger is the command's alone and the service writes nothing for a
 * migration that may never come.
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { ConfigError, loadConfig } from '../shared/config.js';
import { replyCode } from '../shared/redis-errors.js';
import { keys } from '../shared/keyspace.js';
import { historyKeys, snapshotKeys } from '../shared/snapshot-keys.js';
import { SERIES_OWNER, SNAPSHOT_KINDS, SNAPSHOTS, type SeriesName, type SnapshotName } from '../shared/snapshot-kinds.js';
import { closeRedis, createRedis, waitForReplicas } from '../shared/redis.js';
import { redactUrl } from '../shared/redact-url.js';

const USAGE = 'usage: redis:migrate --from <redis-url> [--to <redis-url> | --to-cluster host:port,...] [--replace] [--follow-deletions]';

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
    if (colon > 0 && Object.hasOwn(SERIES_OWNER, series))
      return { key: historyKeys.series(series, id.slice(colon + 1)), family: 'history' };
    const kind = SNAPSHOTS.find((name) => SNAPSHOT_KINDS[name].events === id);
    if (kind) return { key: historyKeys.events(kind), family: 'history' };
  }
  return undefined;
}

interface MigrationCounts {
  copied: Record<Family, number>;
  /** Already at the target and not in the ledger: left as they were (unless --replace). */
  present: number;
  /** Unchanged at the source since the last run: the target's state stands. */
  unchanged: number;
  /** Changed at the source but deleted at the target since the last run: left deleted. */
  deletedAtTarget: number;
  /** Users and keys deleted at the source since the last run: deleted at the target too (--follow-deletions). */
  deletedAtSource: number;
  /** Users, keys and set members gone from the source since the last run, kept at the target (no --follow-deletions): their old names. */
  goneKept: string[];
  /** Old keys that are not copied (caches, counters, budgets). */
  skipped: number;
}

/** Families whose deletion at the source is carried over: a revoked key or a removed user must not live on at the target. */
const DELETIONS_FOLLOWED: readonly Family[] = ['users', 'api keys'];
/** The sets merged member by member: the user list and each user's key list. */
const isMemberSet = (old: string) => old === 'ms:users' || old.startsWith('ms:user-api-keys:');

const digest = (value: Buffer | string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

/** Copies every old-layout key of `source` to its new name at `target`, honouring what changed since the last run. */
async function migrate(source: Redis, target: Redis, replace: boolean, followDeletions: boolean): Promise<MigrationCounts> {
  const counts: MigrationCounts = {
    copied: { users: 0, 'api keys': 0, history: 0, snapshots: 0, 'provider state': 0 },
    present: 0,
    unchanged: 0,
    deletedAtTarget: 0,
    deletedAtSource: 0,
    goneKept: [],
    skipped: 0,
  };
  const ledgerKey = keys.migrationLedger();
  const ledger = new Map(Object.entries(await target.hgetall(ledgerKey)));
  if (followDeletions && ledger.has('ms:users') && (await source.exists('ms:users')) === 0) {
    throw new Error(
      'the source has no user list (ms:users) though an earlier run copied one: --follow-deletions would delete every user here; nothing was copied or deleted',
    );
  }
  const seen = new Set<string>();
  for await (const found of source.scanStream({ match: 'ms:*', count: 500 }) as AsyncIterable<string[]>) {
    for (const old of found) {
      const to = newNameOf(old);
      if (!to) {
        // New-layout keys (a second run on the same Redis) and keys that rebuild themselves.
        if (!old.startsWith('ms:{')) counts.skipped += 1;
        continue;
      }
      seen.add(old);
      const last = ledger.get(old);
      const outcome = isMemberSet(old)
        ? await mergeSet(source, target, old, to.key, last, followDeletions, counts.goneKept)
        : await copyKey(source, target, old, to.key, last, replace);
      if (outcome.fingerprint === undefined) continue; // expired meanwhile
      if (outcome.fingerprint !== last) await target.hset(ledgerKey, old, outcome.fingerprint);
      if (outcome.result === 'copied') counts.copied[to.family] += 1;
      else counts[outcome.result] += 1;
    }
  }
  // In the ledger, gone from the source: deleted on the old deployment since the last run.
  for (const old of ledger.keys()) {
    const to = seen.has(old) ? undefined : newNameOf(old);
    if (!to || !DELETIONS_FOLLOWED.includes(to.family)) continue;
    // Kept in the ledger too, so that a later run with --follow-deletions still knows it.
    if (!followDeletions) {
      counts.goneKept.push(old);
      continue;
    }
    const members = setMembers(ledger.get(old));
    if (isMemberSet(old)) {
      if (members.length > 0) await target.srem(to.key, ...members);
    } else counts.deletedAtSource += await target.del(to.key);
    await target.hdel(ledgerKey, old);
  }
  return counts;
}

type Outcome = { fingerprint: string | undefined; result: 'copied' | 'present' | 'unchanged' | 'deletedAtTarget' };

async function copyKey(
  source: Redis,
  target: Redis,
  old: string,
  key: string,
  last: string | undefined,
  replace: boolean,
): Promise<Outcome> {
  const [dump, ttl] = await Promise.all([source.dumpBuffer(old), source.pttl(old)]);
  if (dump === null) return { fingerprint: undefined, result: 'unchanged' };
  const fingerprint = digest(dump);
  if (fingerprint === last) return { fingerprint, result: 'unchanged' };
  if (last !== undefined && (await target.exists(key)) === 0) return { fingerprint, result: 'deletedAtTarget' };
  const args: (string | number | Buffer)[] = [key, ttl > 0 ? ttl : 0, dump];
  if (replace) args.push('REPLACE');
  try {
    await target.call('RESTORE', ...args);
    return { fingerprint, result: 'copied' };
  } catch (error) {
    if (replyCode(error) !== 'BUSYKEY') throw error;
    return { fingerprint, result: 'present' };
  }
}

/** The members a ledger entry of a set recorded. */
function setMembers(entry: string | undefined): string[] {
  return entry?.startsWith('set:') ? (JSON.parse(entry.slice(4)) as string[]) : [];
}

/**
 * A set merged member by member: what the source gained since the last run is added at the
 * target, what it lost is removed; a member the target removed meanwhile stays removed.
 */
async function mergeSet(
  source: Redis,
  target: Redis,
  old: string,
  key: string,
  last: string | undefined,
  followDeletions: boolean,
  goneKept: string[],
): Promise<Outcome> {
  const members = (await source.smembers(old)).sort();
  const before = new Set(setMembers(last));
  const added = members.filter((member) => !before.has(member));
  const removed = [...before].filter((member) => !members.includes(member));
  // Members the source lost stay in the ledger's record until they are removed here, so a later run with --follow-deletions still sees them.
  const recorded = followDeletions ? members : [...new Set([...members, ...removed])].sort();
  const fingerprint = `set:${JSON.stringify(recorded)}`;
  if (!followDeletions) goneKept.push(...removed.map((member) => `${old} ${member}`));
  if (fingerprint === last) return { fingerprint, result: 'unchanged' };
  if (added.length > 0) await target.sadd(key, ...added);
  if (removed.length > 0 && followDeletions) await target.srem(key, ...removed);
  return { fingerprint, result: 'copied' };
}

/** Whether `source` holds any key of the old layout (a user, a key, history, a snapshot, provider state). */
async function holdsOldLayout(source: Redis): Promise<boolean> {
  for await (const found of source.scanStream({ match: 'ms:*', count: 1000 }) as AsyncIterable<string[]>) {
    if (found.some((old) => newNameOf(old) !== undefined)) return true;
  }
  return false;
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
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      'to-cluster': { type: 'string' },
      replace: { type: 'boolean' },
      'follow-deletions': { type: 'boolean' },
    },
  });
  if (!values.from || !/^rediss?:\/\//.test(values.from)) throw new ConfigError(`--from <redis-url> is required; ${USAGE}`);
  const config = loadConfig(targetEnvironment(values));
  const source = createRedis({ redisUrl: values.from, redisTlsInsecure: config.redisTlsInsecure }, 'worker', 'migrate-source');
  const target = createRedis(config, 'worker', 'migrate-target');
  try {
    if (!(await holdsOldLayout(source))) {
      throw new Error(
        `the source ${redactUrl(values.from)} holds none of the old layout's keys (ms:users, ms:user:*, ms:api-key:*, ms:history:*...): it is empty or not the old deployment's Redis; nothing was copied or deleted`,
      );
    }
    const counts = await migrate(source, target, values.replace ?? false, values['follow-deletions'] ?? false);
    // Reported done only once the replicas have it: a failover must not lose the users.
    await waitForReplicas(target);
    const copied = Object.entries(counts.copied)
      .map(([family, n]) => `${family} ${n}`)
      .join(', ');
    const total = Object.values(counts.copied).reduce((sum, n) => sum + n, 0);
    const since = [
      counts.unchanged > 0 ? `${counts.unchanged} unchanged since the last run, left as they are here` : '',
      counts.deletedAtTarget > 0 ? `${counts.deletedAtTarget} deleted here since the last run, left deleted` : '',
      counts.deletedAtSource > 0 ? `${counts.deletedAtSource} deleted at the source since the last run, deleted here` : '',
      counts.goneKept.length > 0
        ? `${counts.goneKept.length} gone from the source since the last run, kept here (--follow-deletions deletes them)`
        : '',
    ].filter(Boolean);
    process.stdout.write(
      `copied ${total} keys (${copied}); ${[`${counts.present} already present, left as they were`, ...since].join('; ')}; ${counts.skipped} not copied (caches, counters)\n`,
    );
    for (const old of counts.goneKept) process.stdout.write(`kept (gone from the source): ${old}\n`);
  } finally {
    await Promise.all([closeRedis(source), closeRedis(target)]);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const lines = error instanceof ConfigError ? error.problems : [(error instanceof Error ? error.message : String(error)).split('\n')[0]];
  process.stderr.write(lines.map((line) => `redis:migrate: ${line}\n`).join(''));
  process.exit(1);
});
