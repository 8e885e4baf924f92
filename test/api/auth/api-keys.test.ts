/**
 * Issue 21, API keys: through real HTTP against the real stack (API, worker, simulator, Redis).
 * Keys are made with the store here; the command and two API processes are in api-key-lifecycle.test.ts.
 */
import { expect } from 'chai';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from '../../../apps/api/src/auth/api-key-format.js';
import { VERIFIED_FOR_MS } from '../../../apps/api/src/auth/api-key-verifier.js';
import { ApiKeyStore } from '../../../apps/api/src/auth/api-keys.js';
import { UserStore, type UserRecord } from '../../../apps/api/src/auth/users.js';
import { recordRequest } from '../../../apps/api/src/http/request-context.js';
import { HttpMetrics } from '../../../apps/api/src/metrics.js';
import type { Logger } from '../../../shared/logger.js';
import { keys as redisKeys } from '../../../shared/keyspace.js';
import { ownKeys } from '../../support/redis-keys.js';
import { http, type HttpAnswer } from '../../support/http.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { seedUser, tokenFor } from './helpers.js';

const INVALID = { error: 'Invalid API key' };

describe('API keys on the REST routes (X-Api-Key or Authorization: Bearer)', function () {
  this.timeout(60_000);
  let stack: Stack;
  let store: ApiKeyStore;
  let user: UserRecord;
  let userKey: string;
  let adminKey: string;
  const get = (path: string, headers: Record<string, string> = {}) => http(`${stack.apiUrl}${path}`, { headers });
  const expectInvalid = (res: HttpAnswer, what: string) => {
    expect(res.status, what).to.equal(401);
    expect(res.json, what).to.deep.equal(INVALID);
    expect(res.headers.get('www-authenticate'), what).to.equal('Bearer');
  };
  const newKey = async (email: string, name = ''): Promise<string> => {
    const created = await store.create(new UserStore(stack.redis), email, name);
    if (!created) throw new Error(`no user ${email}`);
    return created.key;
  };

  before(async () => {
    // Small budgets, so spending them takes a few requests.
    stack = await startStack({ workers: 1, env: { STATS_MISS_BUDGET: '1', API_KEY_STATS_MISS_BUDGET: '3' } });
    store = new ApiKeyStore(stack.redis);
    user = await seedUser(stack, 'bot-owner@example.com', 'correct-horse');
    await seedUser(stack, 'root@example.com', 'correct-horse', 'admin');
    userKey = await newKey('bot-owner@example.com', 'trading bot');
    adminKey = await newKey('root@example.com');
    await eventually(async () => ((await get('/readyz')).status === 200 ? true : undefined), 30_000, 'ready');
  });
  after(() => stack.close());

  it('when a key is made, then it has the ms_live_ prefix and a valid checksum, and only its SHA-256 is stored', async () => {
    expect(userKey).to.match(/^ms_live_[0-9A-Za-z]{38}$/);
    expect(isWellFormedApiKey(userKey)).to.equal(true);
    expect(await stack.redis.exists(redisKeys.apiKey(hashApiKey(userKey)))).to.equal(1);
    // Nowhere in Redis, as a key name or a value.
    for (const name of await ownKeys(stack.redis)) {
      expect(name).not.to.include(userKey);
      const type = await stack.redis.type(name);
      const values =
        type === 'hash'
          ? Object.values(await stack.redis.hgetall(name))
          : type === 'string'
            ? [await stack.redis.get(name)]
            : type === 'set'
              ? await stack.redis.smembers(name)
              : [];
      for (const value of values) expect(value, name).not.to.include(userKey.slice(8));
    }
  });

  for (const [how, header] of [
    ['X-Api-Key', (key: string) => ({ 'X-Api-Key': key })],
    ['Authorization: Bearer', (key: string) => ({ Authorization: `Bearer ${key}` })],
  ] as const) {
    it(`when a key is sent as ${how}, then /api/auth/me answers its user and names the key (never the key)`, async () => {
      const res = await get('/api/auth/me', header(userKey));
      expect(res.status).to.equal(200);
      const body = res.json as Record<string, unknown> & { credential: Record<string, unknown> };
      expect(body).to.include({ id: user.id, email: 'bot-owner@example.com', role: 'user', createdAt: user.createdAt });
      expect(body.credential).to.include({ type: 'api-key', name: 'trading bot', last4: userKey.slice(-4) });
      expect(body.credential.id).to.match(/^key_[0-9A-Za-z]{12}$/);
      expect(res.body.toString()).not.to.include(userKey.slice(8, 30));
    });
  }

  it('when a JWT is used, then /api/auth/me answers exactly as before (no credential field)', async () => {
    const token = await tokenFor(stack, 'bot-owner@example.com', 'correct-horse');
    const res = await get('/api/auth/me', { Authorization: `Bearer ${token}` });
    expect(res.json).to.deep.equal({ id: user.id, email: user.email, role: 'user', createdAt: user.createdAt });
  });

  it("when an admin's key asks for a refresh, then 202; a user's key gets 403", async () => {
    const admin = await http(`${stack.apiUrl}/api/admin/refresh`, { method: 'POST', headers: { 'X-Api-Key': adminKey } });
    expect(admin.status).to.equal(202);
    const plain = await http(`${stack.apiUrl}/api/admin/refresh`, { method: 'POST', headers: { Authorization: `Bearer ${userKey}` } });
    expect(plain.status).to.equal(403);
    expect(plain.json).to.deep.equal({ error: 'Forbidden' });
  });

  it('when a valid key reads a market route, then it gets what an anonymous client gets', async () => {
    // The refresh the admin test asked for may land between two reads: compare reads of one snapshot.
    let anonymous = await get('/api/market/trending');
    let keyed = await get('/api/market/trending', { 'X-Api-Key': userKey });
    for (let tries = 0; tries < 3 && keyed.headers.get('etag') !== anonymous.headers.get('etag'); tries += 1) {
      anonymous = await get('/api/market/trending');
      keyed = await get('/api/market/trending', { 'X-Api-Key': userKey });
    }
    expect(keyed.status).to.equal(200);
    expect(keyed.body.equals(anonymous.body)).to.equal(true);
    expect(keyed.headers.get('etag')).to.equal(anonymous.headers.get('etag'));
  });

  const broken = () => {
    const key = generateApiKey();
    return `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
  };
  const bad: [string, () => string][] = [
    ['malformed (not a key at all)', () => 'not-a-key'],
    ['malformed (the prefix, too short)', () => 'ms_live_abc'],
    ['malformed (a bad checksum: a typo)', broken],
    ['unknown (well-formed, never issued)', generateApiKey],
    ['empty', () => ''],
  ];
  for (const [what, make] of bad) {
    it(`when the key is ${what}, then 401 Invalid API key on /me, a cached market read and /healthz alike`, async () => {
      const key = make();
      for (const path of ['/api/auth/me', '/api/market/trending', '/api/market/news?limit=5', '/healthz']) {
        expectInvalid(await get(path, { 'X-Api-Key': key }), `${path} X-Api-Key`);
        if (key.startsWith('ms_')) expectInvalid(await get(path, { Authorization: `Bearer ${key}` }), `${path} Bearer`);
      }
    });
  }

  it('when a key is revoked, then every route that asks Redis refuses its next request, and cached reads within a second', async () => {
    const key = await newKey('bot-owner@example.com', 'short-lived');
    expect((await get('/api/market/trending', { 'X-Api-Key': key })).status).to.equal(200);
    const [listed] = (await store.list('bot-owner@example.com')).filter((info) => info.name === 'short-lived');
    expect(await store.revoke(listed!.id)).to.include({ id: listed!.id });
    expectInvalid(await get('/api/auth/me', { Authorization: `Bearer ${key}` }), 'revoked');
    expectInvalid(await get('/api/market/trending', { 'X-Api-Key': key }), 'revoked');
  });

  it('when a key polling cached reads is revoked, then the polls are refused within a second (VERIFIED_FOR_MS)', async () => {
    const key = await newKey('bot-owner@example.com', 'poller');
    for (let i = 0; i < 3; i += 1) expect((await get('/api/market/trending', { Authorization: `Bearer ${key}` })).status).to.equal(200);
    const [listed] = (await store.list('bot-owner@example.com')).filter((info) => info.name === 'poller');
    await store.revoke(listed!.id);
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 3000)
      status = (await get('/api/market/trending', { Authorization: `Bearer ${key}` })).status;
    const refusedAfter = Date.now() - revokedAt;
    console.log(`      revoked key refused by the fast path ${refusedAfter} ms after the revoke (VERIFIED_FOR_MS ${VERIFIED_FOR_MS})`);
    expect(status).to.equal(401);
    expect(refusedAfter).to.be.at.most(1000);
  });

  it('when a key has expired, then it is refused on cached reads and every other route, as an invalid key', async () => {
    const created = await store.create(new UserStore(stack.redis), 'bot-owner@example.com', 'brief', 1500);
    const key = created!.key;
    expect(created!.expiresAt).to.be.a('string');
    expect((await get('/api/market/trending', { 'X-Api-Key': key })).status).to.equal(200);
    expect((await get('/api/auth/me', { 'X-Api-Key': key })).status).to.equal(200);
    const expiresAt = Date.parse(created!.expiresAt!);
    // Polled right up to the expiry: a read answered from what the process remembers must stop too.
    while (Date.now() < expiresAt - 50) await get('/api/market/trending', { 'X-Api-Key': key });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now() + 5)));
    expectInvalid(await get('/api/market/trending', { 'X-Api-Key': key }), 'expired, cached read');
    expectInvalid(await get('/api/auth/me', { 'X-Api-Key': key }), 'expired, /me');
  });

  it('when a key is in the query string, then 400, on the fast path and in Koa', async () => {
    for (const path of [
      `/api/market/trending?api_key=${userKey}`,
      `/api/market/news?limit=5&k=${userKey}`,
      '/api/auth/me?apiKey=whatever',
      `/healthz?x-api-key=1`,
    ]) {
      const res = await get(path);
      expect(res.status, path).to.equal(400);
      expect(res.json, path).to.deep.equal({
        error: 'API keys are accepted only in the X-Api-Key or Authorization header, never in the URL',
      });
    }
  });

  it('when X-Api-Key and Authorization carry two different keys, then 400; the same key twice is fine', async () => {
    const res = await get('/api/auth/me', { 'X-Api-Key': userKey, Authorization: `Bearer ${adminKey}` });
    expect(res.status).to.equal(400);
    expect(res.json).to.deep.equal({ error: 'Send the API key once: X-Api-Key and Authorization carry different keys' });
    expect((await get('/api/auth/me', { 'X-Api-Key': userKey, Authorization: `Bearer ${userKey}` })).status).to.equal(200);
  });

  it('when a key is used, then key list shows its last use (to within a minute), and never the key', async () => {
    const [info] = (await store.list('bot-owner@example.com')).filter((key) => key.name === 'trading bot');
    expect(info?.lastUsedAt).to.be.a('string');
    expect(Date.now() - Date.parse(info!.lastUsedAt!)).to.be.below(120_000);
    expect(JSON.stringify(info)).not.to.include(userKey.slice(8, 30));
  });

  it('when a key polls cached reads, then its last use is written once a minute at most, not per read', async () => {
    const key = await newKey('bot-owner@example.com', 'steady poller');
    const record = redisKeys.apiKey(hashApiKey(key));
    expect((await get('/api/market/trending', { 'X-Api-Key': key })).status).to.equal(200);
    const first = await stack.redis.hget(record, 'lastUsedAt');
    expect(first).to.be.a('string');
    // Across more than one VERIFIED_FOR_MS, so Redis is asked again meanwhile.
    const until = Date.now() + 2 * VERIFIED_FOR_MS + 100;
    while (Date.now() < until) expect((await get('/api/market/trending', { 'X-Api-Key': key })).status).to.equal(200);
    expect((await get('/api/auth/me', { 'X-Api-Key': key })).status).to.equal(200);
    expect(await stack.redis.hget(record, 'lastUsedAt')).to.equal(first);
  });

  it('when a keyed client misses stats, then its own budget (3) is charged and RateLimit says what is left; the address budget (1) is separate', async () => {
    const headers = { 'X-Api-Key': userKey };
    const usage = async (h: Record<string, string> = {}) =>
      (await get('/api/auth/usage', h)).json as { client: Record<string, unknown>; statsMisses: Record<string, number> };
    expect(await usage(headers)).to.deep.include({
      client: { type: 'api-key', id: (await usage(headers)).client.id, name: 'trading bot', last4: userKey.slice(-4) },
    });
    expect((await usage(headers)).statsMisses).to.include({ limit: 3, used: 0, remaining: 3, windowSeconds: 600 });

    const seen: string[] = [];
    for (const name of ['nobody_a1', 'nobody_a2', 'nobody_a3']) {
      const res = await get(`/api/market/stats/${name}`, headers);
      expect(res.status, name).to.equal(404);
      seen.push(res.headers.get('ratelimit') ?? '');
      expect(res.headers.get('ratelimit-policy')).to.equal('"stats-misses";q=3;w=600');
    }
    expect(seen.map((field) => /r=(\d+)/.exec(field)?.[1])).to.deep.equal(['2', '1', '0']);
    const refused = await get('/api/market/stats/nobody_a4', headers);
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('retry-after')).to.match(/^\d+$/);
    const spent = await usage(headers);
    expect(spent.statsMisses).to.include({ limit: 3, used: 3, remaining: 0 });
    expect(spent.statsMisses.resetSeconds).to.be.within(1, 600);
    expect(JSON.stringify(spent)).not.to.include(userKey.slice(8, 30));

    // The same client without its key: the address's budget, untouched by the key's misses.
    expect(await usage()).to.deep.equal({
      client: { type: 'address' },
      statsMisses: { limit: 1, used: 0, remaining: 1, windowSeconds: 600, resetSeconds: 600 },
    });
    expect((await get('/api/market/stats/nobody_b1')).status).to.equal(404);
    expect((await get('/api/market/stats/nobody_b2')).status).to.equal(429);
  });

  it('when the user is removed, then its keys are refused at once, and revokeAll deletes them', async () => {
    const owner = await seedUser(stack, 'leaver@example.com', 'correct-horse');
    const key = await newKey(owner.email, 'leaving');
    expect((await get('/api/auth/me', { 'X-Api-Key': key })).status).to.equal(200);
    await new UserStore(stack.redis).remove(owner.email);
    expectInvalid(await get('/api/auth/me', { 'X-Api-Key': key }), 'user removed');
    // Added again under the same email: a new user, who does not inherit the old keys.
    await seedUser(stack, 'leaver@example.com', 'correct-horse');
    expectInvalid(await get('/api/auth/me', { 'X-Api-Key': key }), 'user added again');
    expect(await store.revokeAll(owner.email)).to.equal(1);
    expect(await stack.redis.exists(redisKeys.apiKey(hashApiKey(key)), redisKeys.userApiKeys(owner.email))).to.equal(0);
  });
});

describe('the access log line of a request with a key in its URL', () => {
  it('when the URL carries a key, then the logged url has it masked', () => {
    const lines: Record<string, unknown>[] = [];
    const logger = { info: (fields: Record<string, unknown>) => lines.push(fields) } as unknown as Logger;
    const key = generateApiKey();
    recordRequest(
      { logger, metrics: new HttpMetrics() },
      {
        requestId: 'r',
        method: 'GET',
        url: `/api/market/trending?api_key=${key}`,
        route: 'unmatched',
        status: 400,
        started: performance.now(),
      },
    );
    expect(lines[0]?.url).to.equal('/api/market/trending?api_key=ms_live_***');
  });
});

describe('GET /metrics with METRICS_TOKEN set', function () {
  this.timeout(30_000);
  const TOKEN = 'scrape-token-0123456789abcdef';
  let stack: Stack;
  const metrics = (headers: Record<string, string> = {}) => http(`${stack.apiUrl}/metrics`, { headers });

  before(async () => {
    stack = await startStack({ workers: 0, env: { METRICS_TOKEN: TOKEN } });
  });
  after(() => stack.close());

  it('when Prometheus sends Authorization: Bearer <METRICS_TOKEN>, then 200 with the metrics', async () => {
    const res = await metrics({ Authorization: `Bearer ${TOKEN}` });
    expect(res.status).to.equal(200);
    expect(res.body.toString()).to.include('http_request_duration_seconds');
  });

  it('when the token is missing, wrong, a prefix of it, or an API key, then 401 and no metrics', async () => {
    expect((await metrics()).json).to.deep.equal({ error: 'Missing token' });
    for (const value of ['wrong-token-0123456789abcdef', TOKEN.slice(0, -1), `${TOKEN}x`, generateApiKey()]) {
      const res = await metrics({ Authorization: `Bearer ${value}` });
      expect(res.status, value).to.equal(401);
      expect(res.json).to.deep.equal({ error: 'Invalid metrics token' });
      expect(res.headers.get('www-authenticate')).to.equal('Bearer');
    }
  });
});
