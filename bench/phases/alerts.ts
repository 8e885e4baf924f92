/**
 * Alerts (issue 36): the worker's evaluation of 100,000 rules over 1,000 users against one
 * trending refresh (its CPU, and how it grows from 1,000 rules), the worker's memory while it
 * holds them, and the time from a refresh landing to the first delivery at a loopback receiver
 * (p50/p99 over 1,000 firings). Runs in this process over a private redis-server: the evaluator
 * and the delivery worker are the worker's own modules, so CPU and memory are this process's.
 * `npm run bench -- --only=alerts`. Targets: evaluation <= 250 ms CPU at 100,000 rules, p99 <= 2 s
 * to the receiver, memory growth <= 100 MB.
 */
import { createServer } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { startDeliveryWorker } from '../../apps/worker/src/alerts/delivery-worker.js';
import { createAlertEvaluator } from '../../apps/worker/src/alerts/evaluator.js';
import type { RefreshFacts } from '../../apps/worker/src/alerts/conditions.js';
import { startTestRedis } from '../../dev/redis-server.js';
import { AlertStore } from '../../shared/alerts/alert-store.js';
import type { AlertCondition, StoredRule } from '../../shared/alerts/alert-types.js';
import { ALERT_DELIVERY_QUEUE, type DeliveryJobData } from '../../shared/alerts/delivery-queue.js';
import { loadConfig } from '../../shared/config.js';
import { createLogger } from '../../shared/logger.js';
import { queueBaseOptions } from '../../shared/queues.js';
import { createRedis } from '../../shared/redis.js';
import type { TrendingToken } from '../../shared/market-types.js';

export interface AlertsOutcome {
  evaluation: { rules: number; cpuMs: number; wallMs: number; fired: number }[];
  rssGrowthMb: number;
  heapGrowthMb: number;
  latency: { firings: number; delivered: number; p50Ms: number; p99Ms: number; maxMs: number };
  /** One user's 300 deliveries to a receiver holding each answer 5 s, then another user's: ms from the first slow arrival to the other's. */
  fairness: { slowDeliveries: number; otherAfterFirstSlowMs: number | null };
}

/** A loopback receiver answering 204 after `delayMs`; `arrivals` are the times (ms) requests came in. */
async function slowReceiver(delayMs: number): Promise<{ url: string; arrivals: number[]; close(): void }> {
  const arrivals: number[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    arrivals.push(Date.now());
    req.resume();
    const timer = setTimeout(() => {
      timers.delete(timer);
      res.writeHead(204).end();
    }, delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      server.close();
    },
  };
}

const TOKENS = Array.from({ length: 50 }, (_, i) => `TOK${i}`);
const item = (token: string, mentions: number): TrendingToken => ({
  token,
  name: token,
  mentions,
  smartMoneyMentions: 1,
  priceChange24h: 0,
});
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

function rule(index: number, users: number, url: string, condition: AlertCondition): StoredRule {
  const at = new Date().toISOString();
  return {
    id: `alr_bench${String(index).padStart(11, '0')}`,
    userId: `user-${index % users}`,
    name: `rule ${index}`,
    condition,
    channels: [{ type: 'webhook', url }],
    cooldownSeconds: 0,
    enabled: true,
    disabledReason: null,
    createdAt: at,
    updatedAt: at,
    secrets: [{ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', expiresAt: null }],
  };
}

/** Rules on trending tokens that do not fire on the refresh measured (rank of a token already in the top, spikes below their floor). */
const quiet = (index: number): AlertCondition =>
  index % 2 === 0
    ? { type: 'rank', token: TOKENS[index % TOKENS.length]!, top: 100 }
    : { type: 'mentions-spike', token: TOKENS[index % TOKENS.length]!, metric: 'mentions', percent: 50, window: 6, minCount: 1_000_000 };

export async function measureAlerts(log: (line: string) => void): Promise<AlertsOutcome> {
  const redisServer = await startTestRedis();
  const config = loadConfig({ NODE_ENV: 'test', REDIS_URL: redisServer.url, ALERTS_ALLOW_LOOPBACK: 'true', LOG_LEVEL: 'silent' });
  const logger = createLogger(config, 'bench-alerts');
  const redis = createRedis(config, 'worker', 'bench', logger);
  const queueConnection = createRedis(config, 'worker', 'bench-queue', logger);
  const queue = new Queue<DeliveryJobData>(ALERT_DELIVERY_QUEUE, { ...queueBaseOptions(), connection: queueConnection });
  const store = new AlertStore(redis);
  const newEvaluator = () => createAlertEvaluator({ redis, deliveries: queue, config: config.alerts, logger });
  let evaluator = newEvaluator();
  const received: number[] = [];
  let landedAt = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(Date.now() - landedAt);
      res.writeHead(204).end();
    });
  });
  let connections = 0;
  receiver.on('connection', () => connections++);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const current = TOKENS.map((token, i) => item(token, 100 - i));
  const steady: RefreshFacts = { trending: { previous: current, current, window: [] } };
  const pairs = TOKENS.flatMap(
    (token) =>
      [
        ['rank', token],
        ['mentions-spike', token],
      ] as const,
  );
  try {
    const evaluation: AlertsOutcome['evaluation'] = [];
    let seeded = 0;
    // A collection before each reading: what is held, not garbage not yet collected.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let before = process.memoryUsage();
    let after = before;
    for (const total of [1_000, 10_000, 100_000]) {
      while (seeded < total) {
        const batch = Array.from({ length: Math.min(1000, total - seeded) }, (_, i) => rule(seeded + i, 1000, url, quiet(seeded + i)));
        await Promise.all(batch.map((r) => store.create(r, 1_000_000)));
        seeded += batch.length;
      }
      // The worker's growth is what loading and evaluating the rules costs: measured from here, after
      // the bench's own seeding, with a worker that holds no rule yet (as after a restart).
      evaluator = newEvaluator();
      gc();
      before = process.memoryUsage();
      // One warm-up, then the measured evaluation of the same refresh shape.
      await evaluator.evaluate(`warm:${total}`, new Date().toISOString(), steady, pairs);
      const cpu = process.cpuUsage();
      const wall = performance.now();
      const fired = await evaluator.evaluate(`bench:${total}`, new Date().toISOString(), steady, pairs);
      const used = process.cpuUsage(cpu);
      gc();
      after = process.memoryUsage();
      evaluation.push({
        rules: total,
        cpuMs: Math.round((used.user + used.system) / 1000),
        wallMs: Math.round(performance.now() - wall),
        fired,
      });
      log(`alerts: ${total} rules: evaluation ${evaluation.at(-1)!.cpuMs} ms CPU, ${evaluation.at(-1)!.wallMs} ms wall, ${fired} fired`);
    }

    // 1,000 firings: a token enters the top 10 and 1,000 rules (one per user) watch for it.
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        store.create(rule(200_000 + i, 1000, url, { type: 'rank', token: 'NEW', top: 10 }), 1_000_000),
      ),
    );
    const delivery = startDeliveryWorker({
      redis,
      connection: createRedis(config, 'blocking', 'bench-delivery', logger),
      config: config.alerts,
      logger,
    });
    await delivery.worker.waitUntilReady();
    landedAt = Date.now();
    // This process's CPU from the refresh to the last delivery: evaluator, queue, delivery worker and the receiver; on a loaded machine the
    // latency waits for CPU, this does not.
    const cpuAtLanding = process.cpuUsage();
    const entering: RefreshFacts = { trending: { previous: current, current: [item('NEW', 500), ...current], window: [] } };
    const fired = await evaluator.evaluate('bench:latency', new Date().toISOString(), entering, [['rank', 'NEW']]);
    const queuedMs = Date.now() - landedAt;
    const deadline = Date.now() + 60_000;
    while (received.length < fired && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const deliveryCpu = process.cpuUsage(cpuAtLanding);

    // Fairness (issue 46): one user's 300 deliveries to a receiver that holds each answer 5 s, queued
    // before another user's one; the other's must arrive within 5 s of the first slow one.
    const [slow, other] = [await slowReceiver(5000), await slowReceiver(0)];
    const fairRule = (index: number, userId: string, url: string, token: string): StoredRule => ({
      ...rule(index, 1, url, { type: 'rank', token, top: 10 }),
      userId,
    });
    await Promise.all(Array.from({ length: 300 }, (_, i) => store.create(fairRule(300_000 + i, 'slow-user', slow.url, 'FAIR'), 1_000_000)));
    await store.create(fairRule(400_000, 'other-user', other.url, 'OTHER'), 1_000_000);
    const entered = (token: string): RefreshFacts => ({
      trending: { previous: current, current: [item(token, 500), ...current], window: [] },
    });
    await evaluator.evaluate('bench:fair-slow', new Date().toISOString(), entered('FAIR'), [['rank', 'FAIR']]);
    await evaluator.evaluate('bench:fair-other', new Date().toISOString(), entered('OTHER'), [['rank', 'OTHER']]);
    const fairDeadline = Date.now() + 30_000;
    while ((other.arrivals.length === 0 || slow.arrivals.length === 0) && Date.now() < fairDeadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const fairness = {
      slowDeliveries: 300,
      otherAfterFirstSlowMs: other.arrivals[0] && slow.arrivals[0] ? other.arrivals[0] - slow.arrivals[0] : null,
    };
    log(`alerts: fairness: another user's delivery ${fairness.otherAfterFirstSlowMs ?? '(none)'} ms after the first of 300 held 5 s`);
    slow.close();
    other.close();
    await delivery.close(true);
    const sorted = [...received].sort((a, b) => a - b);
    const latency = {
      firings: fired,
      delivered: received.length,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.at(-1) ?? 0,
    };
    log(
      `alerts: ${fired} firings claimed and queued in ${queuedMs} ms, ${received.length} delivered: refresh -> receiver ` +
        `first ${sorted[0] ?? '-'} ms, p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms; ` +
        `${Math.round((deliveryCpu.user + deliveryCpu.system) / 1000)} ms of CPU in all, over ${connections} connections`,
    );
    return {
      evaluation,
      rssGrowthMb: Math.round((after.rss - before.rss) / 1e5) / 10,
      heapGrowthMb: Math.round((after.heapUsed - before.heapUsed) / 1e5) / 10,
      latency,
      fairness,
    };
  } finally {
    receiver.close();
    await queue.close();
    redis.disconnect();
    queueConnection.disconnect();
    await redisServer.stop();
  }
}

/** A verdict per target, for the run's summary. */
export function judgeAlerts(outcome: AlertsOutcome): string[] {
  const largest = outcome.evaluation.at(-1)!;
  return [
    `${largest.cpuMs <= 250 ? 'PASS' : 'FAIL'}: evaluation of ${largest.rules} rules <= 250 ms CPU: ${largest.cpuMs} ms (1,000 rules: ${outcome.evaluation[0]!.cpuMs} ms)`,
    `${outcome.latency.p99Ms <= 2000 && outcome.latency.delivered === outcome.latency.firings ? 'PASS' : 'FAIL'}: refresh -> first delivery p99 <= 2 s over ${outcome.latency.firings} firings (${outcome.latency.delivered} delivered): p50 ${outcome.latency.p50Ms} ms, p99 ${outcome.latency.p99Ms} ms`,
    `${outcome.fairness.otherAfterFirstSlowMs !== null && outcome.fairness.otherAfterFirstSlowMs <= 5000 ? 'PASS' : 'FAIL'}: another user's delivery within 5 s of the first of ${outcome.fairness.slowDeliveries} held 5 s: ${outcome.fairness.otherAfterFirstSlowMs ?? 'never'} ms`,
    `${outcome.rssGrowthMb <= 100 ? 'PASS' : 'FAIL'}: worker memory growth at ${largest.rules} rules <= 100 MB: RSS +${outcome.rssGrowthMb} MB (heap +${outcome.heapGrowthMb} MB)`,
  ];
}
