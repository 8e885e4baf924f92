import { expect } from 'chai';
import type { Queue } from 'bullmq';
import { snapshotKeys } from '../../shared/snapshot-keys.js';
import { REFRESH_QUEUE, requestRefresh, type RefreshJobData } from '../../shared/queues.js';
import { startTestRedis, type TestRedis } from '../support/redis-server.js';
import { eventually, startStack, type Stack } from '../support/stack.js';

/**
 * A Redis failover refuses writes for a few seconds. A refresh whose upstream answer arrives then
 * must store it once Redis takes writes again, not fail and be retried: a retry fetches again
 * (a second paid call, two runs in one scheduled period: the Sentinel fault test saw [1,1,2,1,1]).
 */
describe('when Redis refuses writes while a refresh is fetching', () => {
  let redis: TestRedis;
  let stack: Stack;
  let queue: Queue<RefreshJobData>;

  before(async () => {
    redis = await startTestRedis();
    stack = await startStack({ redisUrl: redis.url });
    queue = stack.queue<RefreshJobData>(REFRESH_QUEUE);
    await eventually(
      async () => ((await stack.redis.exists(snapshotKeys.snapshot('trending'))) === 1 ? true : undefined),
      30_000,
      'the first snapshot',
    );
  });
  after(async () => {
    await stack.redis.config('SET', 'min-replicas-to-write', '0').catch(() => {});
    await queue.close();
    await stack.close();
    await redis.stop();
  });

  it('then the answer is stored once writes are back, from the one upstream call, and the job completes on its first attempt', async () => {
    const before = await stack.redis.get(snapshotKeys.snapshot('trending'));
    const refusedBefore = await refusedWrites(stack);
    stack.sim.resetStats();
    stack.sim.advanceClock(30 * 60_000);
    // The answer takes 1 s: writes are refused before it arrives, and until the job has had two refused.
    stack.sim.setFaults({ latencyMs: 1000, paths: ['/v1/trending'] });
    const id = await requestRefresh(queue, 'refresh-trending');
    await eventually(() => ((stack.sim.stats()['/v1/trending/tokens'] ?? 0) >= 1 ? true : undefined), 10_000, 'the upstream call');
    // As a master that lost its replicas does (min-replicas-to-write): every write answers NOREPLICAS.
    await stack.redis.config('SET', 'min-replicas-to-write', '1');
    // Two refusals: the job kept its answer through a refused write and tried again.
    await eventually(async () => ((await refusedWrites(stack)) >= refusedBefore + 2 ? true : undefined), 10_000, 'two writes refused');
    await stack.redis.config('SET', 'min-replicas-to-write', '0');

    const after = await eventually(
      async () => {
        const body = await stack.redis.get(snapshotKeys.snapshot('trending'));
        return body !== before ? body : undefined;
      },
      15_000,
      'the fetched snapshot stored',
    );
    const job = await eventually(async () => {
      const found = await queue.getJob(id);
      return found && (await found.getState()) === 'completed' ? found : undefined;
    });
    expect(job.attemptsStarted, 'attempts').to.equal(1);
    expect(stack.sim.stats()['/v1/trending/tokens'], 'upstream calls').to.equal(1);
    expect(Date.parse((JSON.parse(after!) as { cachedAt: string }).cachedAt)).to.be.greaterThan(
      Date.parse((JSON.parse(before!) as { cachedAt: string }).cachedAt),
    );
  });
});

/** Commands Redis answered NOREPLICAS since it started (INFO errorstats). */
async function refusedWrites(stack: Stack): Promise<number> {
  const info = await stack.redis.info('errorstats');
  return Number(/errorstat_NOREPLICAS:count=(\d+)/.exec(info)?.[1] ?? 0);
}
