/**
 * GET /api/market/stats/:username through real HTTP, a real Redis, the worker and the index
 * simulator: one stampede costs one lookup and one upstream call; a hit is served from the
 * API's 1 s memory copy with a max-age that keeps counting down from the Redis TTL.
 */
import { expect } from 'chai';
import { connect } from 'node:net';
import type { Redis } from 'ioredis';
import { keys } from '../../shared/keyspace.js';
import { clusterOf } from '../../shared/redis.js';
import { http } from '../support/http.js';
import { eventually, startStack, type Stack } from '../support/stack.js';

describe('GET /api/market/stats/:username (single flight, memory copy)', () => {
  let stack: Stack;

  before(async () => {
    stack = await startStack();
  });
  after(() => stack.close());

  it('when 200 clients ask at once for an uncached username, then one lookup and one re-read in all, one upstream call and 200 identical 200s', async () => {
    const username = stack.sim.trackedUsernames()[5]!;
    // The upstream answers slowly enough that all 200 requests arrive while the flight waits, even on a
    // loaded machine: one arriving over 1 s after the re-read would rightly read Redis again (300 ms once gave 3 lookups).
    stack.sim.setFaults({ latencyMs: 1500, paths: ['/v1/accounts/'] });
    stack.sim.resetStats();
    const lookups = await watchLookups(stack.redis, username.toLowerCase());
    const answers = await Promise.all(Array.from({ length: 200 }, () => http(`${stack.apiUrl}/api/market/stats/${username}`)));
    stack.sim.clearFaults();

    expect(answers.map((a) => a.status)).to.deep.equal(Array(200).fill(200));
    expect(new Set(answers.map((a) => a.body.toString())).size).to.equal(1);
    expect((answers[0]!.json as { username: string }).username).to.equal(username);
    expect(stack.sim.stats()['/v1/accounts/:username']).to.equal(1);
    // One Redis lookup before the job and one re-read after it, shared by all 200 requests.
    expect(await lookups.stop()).to.equal(2);
  });

  it('when a hit has been read, then it is served from memory for 1 s with max-age counting down, then re-read', async () => {
    const key = keys.stats('memo_user');
    const stored = (cachedAt: string) =>
      JSON.stringify({ username: 'Memo_User', indexScore: 1, smartMoneyRank: 2, totalPosts: 3, avgEngagement: 4, topTokens: [], cachedAt });
    const ttlMs = 10_700;
    await stack.redis.set(key, stored('2026-11-21T00:00:00.000Z'), 'PX', ttlMs);
    const setAt = Date.now();
    /** GET, and the max-age the Redis TTL allows for it: between its bounds at send and at answer. */
    const get = async () => {
      const sent = Date.now();
      const res = await http(`${stack.apiUrl}/api/market/stats/memo_user`);
      const answered = Date.now();
      const maxAge = Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1]);
      return { res, maxAge, allowed: [Math.floor((ttlMs - (answered - setAt)) / 1000), Math.floor((ttlMs - (sent - setAt)) / 1000)] };
    };

    const first = await get();
    expect(first.res.status).to.equal(200);
    expect(first.maxAge).to.be.within(first.allowed[0]!, first.allowed[1]!);
    const firstAt = Date.now();

    // Redis changes; the API keeps serving the copy it read, with the expiry it read.
    await stack.redis.set(key, stored('2026-11-21T00:30:00.000Z'), 'KEEPTTL');
    await sleep(800 - (Date.now() - firstAt));
    const lookups = await watchLookups(stack.redis, 'memo_user');
    const second = await get();
    expect(await lookups.stop()).to.equal(0);
    expect((second.res.json as { cachedAt: string }).cachedAt).to.equal('2026-11-21T00:00:00.000Z');
    expect(second.maxAge).to.be.within(second.allowed[0]!, second.allowed[1]!);

    // Older than 1 s: read from Redis again.
    await sleep(1100 - (Date.now() - firstAt));
    const third = await get();
    expect((third.res.json as { cachedAt: string }).cachedAt).to.equal('2026-11-21T00:30:00.000Z');
    expect(third.maxAge).to.be.within(third.allowed[0]!, third.allowed[1]!);
  });

  it('when the username is not in the index, then 404 Username not found in index, also on the next request', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await http(`${stack.apiUrl}/api/market/stats/not_in_index_x`);
      expect(res.status).to.equal(404);
      expect(res.json).to.deep.equal({ error: 'Username not found in index' });
    }
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Counts the stats lookups for one username that Redis sees: MONITOR (every command of every
 * client) on a plain socket; the lookup is the only PTTL on a stats key.
 */
async function watchLookups(redis: Redis, username: string): Promise<{ stop(): Promise<number> }> {
  // On a cluster the key lives on one master: watch them all.
  const nodes = clusterOf(redis)
    ?.nodes('master')
    .map((node) => node.options) ?? [redis.options];
  const watched = await Promise.all(
    nodes.map(async ({ host, port }) => {
      const socket = connect({ host: host ?? '127.0.0.1', port: port ?? 6379 });
      await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      const node = { socket, seen: '', host: host ?? '127.0.0.1', port: port ?? 6379 };
      socket.on('data', (chunk: Buffer) => (node.seen += chunk.toString('utf8')));
      socket.write('MONITOR\r\n');
      await eventually(() => (node.seen.startsWith('+OK') ? true : undefined), 2000, 'MONITOR');
      return node;
    }),
  );
  const needle = ` "pttl" "${keys.stats(username)}"`;
  return {
    async stop() {
      // MONITOR reports commands in the order the server runs them: once it has shown a marker
      // sent after the request, it has shown every lookup the request made.
      const marker = `watch-end-${Date.now()}`;
      await Promise.all(
        watched.map(async (node) => {
          const sender = connect({ host: node.host, port: node.port });
          sender.on('error', () => {});
          sender.write(`*2\r\n$4\r\nECHO\r\n$${marker.length}\r\n${marker}\r\n`);
          await eventually(() => (node.seen.includes(marker) ? true : undefined), 2000, 'MONITOR to show the marker');
          sender.destroy();
        }),
      );
      for (const { socket } of watched) socket.destroy();
      return watched.flatMap(({ seen }) => seen.split('\n')).filter((line) => line.toLowerCase().includes(needle)).length;
    },
  };
}
