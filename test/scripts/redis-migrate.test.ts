/**
 * `npm run redis:migrate` from a real single node holding the old (untagged) key names to a real
 * three-master cluster: users log in, API keys authenticate and history is served on the
 * cluster; a second run copies nothing and leaves what the cluster wrote meanwhile.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { hashPassword } from '../../apps/api/src/auth/passwords.js';
import { generateApiKey, hashApiKey } from '../../apps/api/src/auth/api-key-format.js';
import { ApiKeyStore } from '../../apps/api/src/auth/api-keys.js';
import { UserStore } from '../../apps/api/src/auth/users.js';
import { keys } from '../../shared/keyspace.js';
import { runBuilt, tokenFor } from '../api/auth/helpers.js';
import { http } from '../support/http.js';
import { startTestRedis, startTestRedisCluster, type TestRedis, type TestRedisCluster } from '../support/redis-server.js';
import { startStack, type Stack } from '../support/stack.js';

const KEY = generateApiKey();
/** The test process's environment without any Redis of its own: the command's target is given by flag. */
const childEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ['REDIS_URL', 'REDIS_SENTINELS', 'REDIS_CLUSTER_NODES']) delete env[name];
  return env;
};

describe('npm run redis:migrate (single node, old key names -> Redis Cluster)', function () {
  this.timeout(60_000);
  let old: TestRedis;
  let cluster: TestRedisCluster;
  let stack: Stack | undefined;
  const at = Date.now() - 3_600_000;

  before(async () => {
    [old, cluster] = await Promise.all([startTestRedis(), startTestRedisCluster()]);
    const redis = new Redis(old.url, { protocol: 2 });
    // The layout before hash tags, written as the previous release wrote it.
    await redis.hset('ms:user:ada@example.com', {
      id: '7b0c6d1e-0000-4000-8000-000000000001',
      email: 'ada@example.com',
      role: 'admin',
      passwordHash: await hashPassword('correct horse battery'),
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    await redis.sadd('ms:users', 'ada@example.com');
    await redis.hset(`ms:api-key:${hashApiKey(KEY)}`, {
      id: 'key_000000000001',
      userId: '7b0c6d1e-0000-4000-8000-000000000001',
      email: 'ada@example.com',
      name: 'bot',
      last4: KEY.slice(-4),
      createdAt: '2026-01-02T00:00:00.000Z',
    });
    await redis.set('ms:api-key-id:key_000000000001', hashApiKey(KEY));
    await redis.sadd('ms:user-api-keys:ada@example.com', 'key_000000000001');
    await redis.xadd('ms:history:token:BTC', `${at}-0`, 'r', '1', 'm', '42', 's', '7', 'p', '1.5');
    await redis.pexpire('ms:history:token:BTC', 86_400_000);
    await redis.xadd('ms:history:trending-times', `${at}-0`, 'n', '30');
    await redis.set('ms:stats:someone', '{}', 'EX', 600);
    redis.disconnect();
  });
  after(async () => {
    await stack?.close();
    await Promise.all([old.stop(), cluster.stop()]);
  });

  const migrate = (...extra: string[]) =>
    runBuilt('scripts/redis-migrate.ts', ['--from', old.url, '--to-cluster', cluster.seeds, ...extra], {
      env: childEnv({ NODE_ENV: 'test' }),
    });

  it('copies users, API keys and history to their new names, keeping time to live; caches are left behind', async () => {
    const run = await migrate();
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.equal(
      'copied 7 keys (users 2, api keys 3, history 2, snapshots 0, provider state 0); 0 already present, left as they were; 1 not copied (caches, counters)\n',
    );
  });

  it('then the service on the cluster logs the user in, takes the API key and serves the history', async () => {
    stack = await startStack({ redisClusterNodes: cluster.seeds });
    // A login the migrated user's hash verifies (tokenFor throws on anything but 200, after a load-shed 503's Retry-After).
    expect(await tokenFor(stack, 'ada@example.com', 'correct horse battery')).to.match(/^\S+$/);
    expect((await http(`${stack.apiUrl}/api/auth/me`, { headers: { 'X-Api-Key': KEY } })).status).to.equal(200);
    const history = await http(`${stack.apiUrl}/api/market/tokens/BTC/history?from=${new Date(at - 1000).toISOString()}`);
    expect(history.status, history.body.toString()).to.equal(200);
    const points = (history.json as { points: { at: string; mentions: number }[] }).points;
    expect(points[0]).to.deep.include({ at: new Date(at).toISOString(), mentions: 42 });
    expect(await stack.redis.pttl(keys.user('ada@example.com'))).to.equal(-1);
  });

  it('when run again, then nothing is copied and what the cluster holds now is kept', async () => {
    await stack!.redis.hset(keys.user('ada@example.com'), 'role', 'user');
    const run = await migrate();
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(
      /^copied 0 keys .*; 0 already present, left as they were; 7 unchanged since the last run, left as they are here;/,
    );
    expect(await stack!.redis.hget(keys.user('ada@example.com'), 'role')).to.equal('user');
  });

  it('when --from is missing, then exit 1 with one line', async () => {
    const run = await runBuilt('scripts/redis-migrate.ts', ['--to-cluster', cluster.seeds], { env: childEnv({ NODE_ENV: 'test' }) });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/^redis:migrate: --from <redis-url> is required; usage: .*\n$/);
  });
});

describe('npm run redis:migrate run twice: what changed between the runs (issue 28)', function () {
  this.timeout(60_000);
  let old: TestRedis;
  let target: TestRedis;
  let source: Redis;
  let redis: Redis;
  const keyOf: Record<string, string> = { ada: generateApiKey(), bob: generateApiKey(), eve: generateApiKey() };
  const userId = (name: string) => `7b0c6d1e-0000-4000-8000-00000000000${name.length}${name.charCodeAt(0) % 10}`;

  /** The previous release's layout: users ada, bob and eve, one key each. */
  async function seedOld(): Promise<void> {
    const digest = await hashPassword('correct horse battery');
    for (const [i, name] of ['ada', 'bob', 'eve'].entries()) {
      const email = `${name}@example.com`;
      await source.hset(`ms:user:${email}`, {
        id: userId(name),
        email,
        role: 'user',
        passwordHash: digest,
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      await source.sadd('ms:users', email);
      const id = `key_00000000000${i}`;
      await source.hset(`ms:api-key:${hashApiKey(keyOf[name]!)}`, {
        id,
        userId: userId(name),
        email,
        name: 'bot',
        last4: keyOf[name]!.slice(-4),
        createdAt: '2026-01-02T00:00:00.000Z',
      });
      await source.set(`ms:api-key-id:${id}`, hashApiKey(keyOf[name]!));
      await source.sadd(`ms:user-api-keys:${email}`, id);
    }
  }
  const migrate = (...extra: string[]) =>
    runBuilt('scripts/redis-migrate.ts', ['--from', old.url, '--to', target.url, ...extra], { env: childEnv({ NODE_ENV: 'test' }) });

  beforeEach(async () => {
    [old, target] = await Promise.all([startTestRedis(), startTestRedis()]);
    source = new Redis(old.url, { protocol: 2 });
    redis = new Redis(target.url, { protocol: 2 });
    await seedOld();
    const first = await migrate();
    expect(first.code, first.stderr).to.equal(0);
  });
  afterEach(async () => {
    source.disconnect();
    redis.disconnect();
    await Promise.all([old.stop(), target.stop()]);
  });

  for (const replace of [[], ['--replace']]) {
    const how = replace.length > 0 ? ' with --replace' : '';
    it(`when a key is revoked, a user removed and a password changed on the new deployment between the runs, then the second run${how} undoes none of it`, async () => {
      const keys_ = new ApiKeyStore(redis);
      const users = new UserStore(redis);
      expect(await keys_.use(keyOf.ada!), 'copied by the first run').not.to.equal(null);
      await keys_.revoke('key_000000000000');
      await users.remove('bob@example.com');
      await keys_.revokeAll('bob@example.com');
      const changed = await hashPassword('a brand new passphrase');
      expect(await users.changePassword('eve@example.com', changed)).to.equal(true);
      const notBefore = (await users.find('eve@example.com'))!.tokensNotBefore;
      // Meanwhile the old deployment went on: ada's and bob's keys were used there (lastUsedAt written).
      await source.hset(`ms:api-key:${hashApiKey(keyOf.ada!)}`, 'lastUsedAt', String(Date.now()));
      await source.hset(`ms:api-key:${hashApiKey(keyOf.bob!)}`, 'lastUsedAt', String(Date.now()));

      const second = await migrate(...replace);
      expect(second.code, second.stderr).to.equal(0);
      expect(second.stdout).to.match(/deleted here since the last run, left deleted/);
      expect(await keys_.use(keyOf.ada!), 'the revoked key').to.equal(null);
      expect(await users.find('bob@example.com'), 'the removed user').to.equal(null);
      expect(await keys_.use(keyOf.bob!), "the removed user's key").to.equal(null);
      expect(await redis.smembers(keys.users())).to.have.members(['ada@example.com', 'eve@example.com']);
      const eve = await users.find('eve@example.com');
      expect(eve?.passwordHash, 'the changed password').to.equal(changed);
      expect(eve?.tokensNotBefore).to.equal(notBefore);
      expect(await keys_.use(keyOf.eve!), 'an untouched key still works').not.to.equal(null);
    });
  }

  it('when the old deployment adds a user, revokes a key and removes a user between the runs, then a second run with --follow-deletions brings the new user and carries both deletions', async () => {
    const digest = await hashPassword('another good password');
    await source.hset('ms:user:zoe@example.com', {
      id: userId('zoe'),
      email: 'zoe@example.com',
      role: 'user',
      passwordHash: digest,
      createdAt: '2026-02-01T00:00:00.000Z',
    });
    await source.sadd('ms:users', 'zoe@example.com');
    await source.del(`ms:api-key:${hashApiKey(keyOf.ada!)}`, 'ms:api-key-id:key_000000000000');
    await source.srem('ms:user-api-keys:ada@example.com', 'key_000000000000');
    await source.del(
      'ms:user:bob@example.com',
      `ms:api-key:${hashApiKey(keyOf.bob!)}`,
      'ms:api-key-id:key_000000000001',
      'ms:user-api-keys:bob@example.com',
    );
    await source.srem('ms:users', 'bob@example.com');

    const second = await migrate('--follow-deletions');
    expect(second.code, second.stderr).to.equal(0);
    expect(second.stdout).to.match(/deleted at the source since the last run, deleted here/);
    const users = new UserStore(redis);
    expect(await users.find('zoe@example.com')).to.deep.include({ email: 'zoe@example.com' });
    expect(await redis.smembers(keys.users())).to.have.members(['ada@example.com', 'eve@example.com', 'zoe@example.com']);
    expect(await users.find('bob@example.com')).to.equal(null);
    expect(await new ApiKeyStore(redis).use(keyOf.ada!)).to.equal(null);
    expect(await redis.smembers(keys.userApiKeys('ada@example.com'))).to.deep.equal([]);
  });

  it('when the source is emptied (or --from names another Redis) after the first run, then the second refuses, exit 1, and the user and key still work at the target (issue 38 item 3)', async () => {
    await source.flushall();
    const second = await migrate();
    expect(second.code).to.equal(1);
    expect(second.stderr).to.match(
      /^redis:migrate: the source redis:\/\/127\.0\.0\.1:\d+\/? holds none of the old layout's keys .* nothing was copied or deleted\n$/,
    );
    expect(await new UserStore(redis).find('ada@example.com')).to.deep.include({ email: 'ada@example.com' });
    expect(await new ApiKeyStore(redis).use(keyOf.ada!)).not.to.equal(null);
    expect(await redis.smembers(keys.users())).to.have.members(['ada@example.com', 'bob@example.com', 'eve@example.com']);
  });

  it('when the source lost a user and a key since the first run, then without --follow-deletions they are listed and kept at the target', async () => {
    await source.del(`ms:api-key:${hashApiKey(keyOf.ada!)}`, 'ms:api-key-id:key_000000000000');
    await source.srem('ms:user-api-keys:ada@example.com', 'key_000000000000');
    await source.del('ms:user:bob@example.com');
    await source.srem('ms:users', 'bob@example.com');

    const second = await migrate();
    expect(second.code, second.stderr).to.equal(0);
    expect(second.stdout).to.match(/5 gone from the source since the last run, kept here \(--follow-deletions deletes them\)/);
    expect(second.stdout).to.include('kept (gone from the source): ms:user:bob@example.com\n');
    expect(second.stdout).to.include('kept (gone from the source): ms:users bob@example.com\n');
    expect(await new UserStore(redis).find('bob@example.com')).to.deep.include({ email: 'bob@example.com' });
    expect(await redis.smembers(keys.users())).to.have.members(['ada@example.com', 'bob@example.com', 'eve@example.com']);
    expect(await new ApiKeyStore(redis).use(keyOf.ada!)).not.to.equal(null);

    // The operator says so: the same deletions are carried by a later run.
    const third = await migrate('--follow-deletions');
    expect(third.code, third.stderr).to.equal(0);
    expect(await new UserStore(redis).find('bob@example.com')).to.equal(null);
    expect(await redis.smembers(keys.users())).to.have.members(['ada@example.com', 'eve@example.com']);
    expect(await new ApiKeyStore(redis).use(keyOf.ada!)).to.equal(null);
  });

  it('when --follow-deletions is given but the source has no user list any more, then it refuses rather than delete every user', async () => {
    await source.del('ms:users');
    const second = await migrate('--follow-deletions');
    expect(second.code).to.equal(1);
    expect(second.stderr).to.match(/no user list \(ms:users\) .* would delete every user here/);
    expect(await redis.smembers(keys.users())).to.have.length(3);
  });
});
