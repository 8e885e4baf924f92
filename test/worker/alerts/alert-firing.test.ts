/**
 * Rules fire on their edge, once per refresh, within their cooldown, and every firing reaches a
 * real loopback receiver that verifies its signature with `standardwebhooks`. The refresh data
 * is given to the evaluator directly (the simulator's data has no edge on demand); the rules are
 * created through the API and delivered by the stack's worker.
 */
import { expect } from 'chai';
import type { Queue } from 'bullmq';
import type { AlertEvaluator } from '../../../apps/worker/src/alerts/evaluator.js';
import type { RefreshFacts } from '../../../apps/worker/src/alerts/conditions.js';
import { indexSubject, type AlertCondition, type AlertEvent } from '../../../shared/alerts/alert-types.js';
import { ALERT_DELIVERY_QUEUE, eventIdFor, type DeliveryJobData } from '../../../shared/alerts/delivery-queue.js';
import type { NewsItem, SentimentRecord, TrendingCa, TrendingToken } from '../../../shared/market-types.js';
import { alertKeys } from '../../../shared/keyspace.js';
import { http } from '../../support/http.js';
import { stackEvaluator } from '../../support/alert-evaluator.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { seedUser, tokenFor } from '../../api/auth/helpers.js';

const token = (symbol: string, mentions: number, smart = 0): TrendingToken => ({
  token: symbol,
  name: symbol,
  mentions,
  smartMoneyMentions: smart,
  priceChange24h: 0,
});
const ca = (address: string, chain: string, smart: number): TrendingCa => ({
  address,
  chain,
  mentions: smart,
  smartMoneyMentions: smart,
  firstSeenAt: '2026-11-28T00:00:00.000Z',
});
const sentiment = (symbol: string, score: number, label: SentimentRecord['label']): Record<string, SentimentRecord> => ({
  [symbol]: {
    token: symbol,
    score,
    label,
    mentions: 10,
    positive: 5,
    neutral: 3,
    negative: 2,
    sample: { posts: 10, authors: 5 },
    confidence: 0.3,
    cachedAt: '2026-11-28T00:00:00.000Z',
  },
});
const post = (id: string, author: string, tokens: string[], followers: number): NewsItem => ({
  id,
  text: `${tokens.join(' ')} looks good`,
  author,
  authorFollowers: followers,
  publishedAt: '2026-11-28T00:00:00.000Z',
  tokens,
  engagementScore: 50,
});

/** For each condition: facts where it is false, and where it becomes true (given the false ones before). */
interface Case {
  condition: Record<string, unknown>;
  off: RefreshFacts;
  on: RefreshFacts;
}
const flat = (tokens: TrendingToken[]) =>
  Array.from({ length: 6 }, () => Object.fromEntries(tokens.map((t) => [t.token, [t.mentions, t.smartMoneyMentions] as const])));
const CASES: Record<string, Case> = {
  'sentiment-threshold': {
    condition: { type: 'sentiment-threshold', token: 'SOL', threshold: -0.2, direction: 'down' },
    off: { sentiment: { previous: sentiment('SOL', 0.1, 'neutral'), current: sentiment('SOL', 0.05, 'neutral') } },
    on: { sentiment: { previous: sentiment('SOL', 0.05, 'neutral'), current: sentiment('SOL', -0.3, 'bearish') } },
  },
  'sentiment-label': {
    condition: { type: 'sentiment-label', token: 'SOL', to: 'bearish' },
    off: { sentiment: { previous: sentiment('SOL', 0.1, 'neutral'), current: sentiment('SOL', 0.05, 'neutral') } },
    on: { sentiment: { previous: sentiment('SOL', 0.05, 'neutral'), current: sentiment('SOL', -0.3, 'bearish') } },
  },
  'mentions-spike': {
    condition: { type: 'mentions-spike', token: 'SOL', percent: 50, window: 3, minCount: 20 },
    off: { trending: { previous: [token('SOL', 20)], current: [token('SOL', 21)], window: flat([token('SOL', 20)]) } },
    on: { trending: { previous: [token('SOL', 20)], current: [token('SOL', 45)], window: flat([token('SOL', 20)]) } },
  },
  rank: {
    condition: { type: 'rank', token: 'SOL', top: 2 },
    off: {
      trending: {
        previous: [token('BTC', 9), token('ETH', 8), token('SOL', 7)],
        current: [token('BTC', 9), token('ETH', 8), token('SOL', 7)],
        window: [],
      },
    },
    on: {
      trending: {
        previous: [token('BTC', 9), token('ETH', 8), token('SOL', 7)],
        current: [token('BTC', 9), token('SOL', 8), token('ETH', 7)],
        window: [],
      },
    },
  },
  'new-contract': {
    condition: { type: 'new-contract', chain: 'solana', minSmartMoneyMentions: 3 },
    off: {
      trendingCas: {
        previous: [ca('Aaa', 'solana', 5)],
        current: [ca('Aaa', 'solana', 5), ca('Bbb', 'solana', 1), ca('0xc', 'ethereum', 9)],
      },
    },
    on: { trendingCas: { previous: [ca('Aaa', 'solana', 5)], current: [ca('Aaa', 'solana', 5), ca('Ccc', 'solana', 4)] } },
  },
  post: {
    condition: { type: 'post', account: '@Cobie', token: 'sol', minFollowers: 1000 },
    off: {
      news: {
        previousIds: new Set(['p1']),
        current: [post('p1', 'cobie', ['SOL'], 5000), post('p2', 'cobie', ['SOL'], 10), post('p3', 'other', ['SOL'], 9000)],
      },
    },
    on: { news: { previousIds: new Set(['p1']), current: [post('p1', 'cobie', ['SOL'], 5000), post('p4', 'Cobie', ['SOL'], 5000)] } },
  },
};

describe('alerts: firing on the edge, once per refresh, delivered signed', () => {
  let stack: Stack;
  let receiver: Receiver;
  let apiToken: string;
  let queue: Queue<DeliveryJobData>;
  let evaluator: AlertEvaluator;
  let refresh = 0;

  const createRule = async (condition: Record<string, unknown>, cooldownSeconds = 0) => {
    const answer = await http(`${stack.apiUrl}/api/alerts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: `rule ${String(condition.type)}`,
        condition,
        channels: [{ type: 'webhook', url: receiver.url() }],
        cooldownSeconds,
      }),
    });
    expect(answer.status, JSON.stringify(answer.json)).to.equal(201);
    const rule = answer.json as { id: string; secret: string; condition: AlertCondition };
    receiver.secrets.push(rule.secret);
    return rule;
  };
  const evaluate = (condition: AlertCondition, facts: RefreshFacts, refreshId = `test:${++refresh}`) =>
    evaluator.evaluate(refreshId, new Date().toISOString(), facts, [[condition.type, indexSubject(condition)]]);
  const eventsOf = (ruleId: string) =>
    receiver.received.filter((r) => {
      const event = JSON.parse(r.body) as AlertEvent;
      return event.data.ruleId === ruleId && event.type === 'alert.fired';
    });

  before(async () => {
    stack = await startStack({ env: { ALERTS_ALLOW_LOOPBACK: 'true', REFRESH_INTERVAL: '24h' } });
    receiver = await startReceiver();
    await seedUser(stack, 'dana@example.com', 'dana password 1');
    apiToken = await tokenFor(stack, 'dana@example.com', 'dana password 1');
    queue = stack.queue<DeliveryJobData>(ALERT_DELIVERY_QUEUE);
    evaluator = stackEvaluator(stack, queue);
  });
  // Each test counts the firings of its own rules: the ones before are gone.
  afterEach(async () => {
    const { id } = await me();
    for (const rule of await stack.deps.alerts.list(id)) await stack.deps.alerts.delete(id, rule.id);
  });
  after(async () => {
    await queue.close();
    await receiver.close();
    await stack.close();
  });

  for (const [type, { condition, off, on }] of Object.entries(CASES)) {
    it(`${type}: when the condition becomes true, then it fires once (not again for the same refresh, nor while it stays true), delivered and verified`, async () => {
      const rule = await createRule(condition);
      expect(await evaluate(rule.condition, off), 'false: no firing').to.equal(0);
      expect(await evaluate(rule.condition, on, `edge:${rule.id}`), 'the edge fires').to.equal(1);
      expect(await evaluate(rule.condition, on, `edge:${rule.id}`), 'the same refresh again').to.equal(0);
      const stays: RefreshFacts = JSON.parse(JSON.stringify(on, (_k, v: unknown) => (v instanceof Set ? [...v] : v))) as RefreshFacts;
      // Still true at the next refresh: the previous data is the current one now.
      if (on.trending)
        stays.trending = {
          ...on.trending,
          previous: on.trending.current,
          window: [
            Object.fromEntries(on.trending.current.map((t) => [t.token, [t.mentions, t.smartMoneyMentions] as const])),
            ...on.trending.window,
          ],
        };
      if (on.trendingCas) stays.trendingCas = { previous: on.trendingCas.current, current: on.trendingCas.current };
      if (on.news) stays.news = { previousIds: new Set(on.news.current.map((p) => p.id)), current: on.news.current };
      if (on.sentiment) stays.sentiment = { previous: on.sentiment.current, current: on.sentiment.current };
      expect(await evaluate(rule.condition, stays), 'stays true: no firing').to.equal(0);

      const [event] = await eventually(() => (eventsOf(rule.id).length > 0 ? eventsOf(rule.id) : undefined), 10_000, 'the delivery');
      expect(event!.verifiedBy, 'verified with standardwebhooks').to.equal(receiver.secrets.indexOf(rule.secret));
      const body = JSON.parse(event!.body) as AlertEvent;
      expect(body.data.matches.length).to.be.greaterThan(0);
      expect(event!.id).to.equal(body.data.firingId);
      // The attempt log says delivered; only then is it sure no second event is on its way.
      await eventually(async () => {
        const attempts = await stack.deps.alerts.deliveries((await me()).id, rule.id);
        return attempts.some((a) => a.outcome === 'delivered') ? true : undefined;
      });
      expect(eventsOf(rule.id)).to.have.length(1);
    });
  }

  const me = async () =>
    (await http(`${stack.apiUrl}/api/auth/me`, { headers: { Authorization: `Bearer ${apiToken}` } })).json as { id: string };

  it('when a rule fires again within its cooldown, then nothing is sent; after the cooldown, it fires', async () => {
    const { condition, off, on } = CASES['sentiment-label']!;
    const rule = await createRule(condition, 3600);
    expect(await evaluate(rule.condition, on)).to.equal(1);
    expect(await evaluate(rule.condition, off)).to.equal(0);
    expect(await evaluate(rule.condition, on), 'a new edge within the cooldown').to.equal(0);
    await stack.redis.set(alertKeys.lastFired(rule.id), String(Date.now() - 3_601_000));
    expect(await evaluate(rule.condition, off)).to.equal(0);
    expect(await evaluate(rule.condition, on), 'a new edge after the cooldown').to.equal(1);
    await eventually(() => (eventsOf(rule.id).length === 2 ? true : undefined), 10_000, 'both deliveries');
  });

  it('when a worker dies between the claim and the queue, then the next evaluation by another queues the firing, delivered once', async () => {
    const { condition, on, off } = CASES['sentiment-label']!;
    const rule = await createRule(condition);
    const claimedAt = Date.now();
    // The queue's Redis fails (or the process is killed) right after the claim: nothing reaches the queue.
    const broken = {
      getJobCounts: () => queue.getJobCounts('waiting', 'delayed'),
      addBulk: () => Promise.reject(new Error('killed between claim and enqueue')),
    } as unknown as Queue<DeliveryJobData>;
    const dying = stackEvaluator(stack, broken, () => claimedAt);
    const pairs = [[rule.condition.type, indexSubject(rule.condition)]] as const;
    await dying.evaluate('lost:1', new Date(claimedAt).toISOString(), on, pairs).then(
      () => expect.fail('the enqueue was to fail'),
      (error: Error) => expect(error.message).to.equal('killed between claim and enqueue'),
    );
    expect(await queue.getJob(`${eventIdFor(rule.id, 'lost:1')}-0`), 'not queued').to.equal(undefined);

    // Another worker, past the outbox's 30 s: the same refresh does not fire again, and any evaluation queues what was left.
    const next = stackEvaluator(stack, queue, () => claimedAt + 31_000);
    expect(await next.evaluate('lost:1', new Date(claimedAt).toISOString(), on, pairs), 'claimed already').to.equal(0);
    expect(await next.evaluate('lost:2', new Date().toISOString(), off, pairs)).to.equal(0);
    const [event] = await eventually(() => (eventsOf(rule.id).length > 0 ? eventsOf(rule.id) : undefined), 10_000, 'the delivery');
    expect(event!.id).to.equal(eventIdFor(rule.id, 'lost:1'));
    expect(event!.verifiedBy).to.equal(receiver.secrets.indexOf(rule.secret));
    expect(await stack.redis.hlen(alertKeys.outbox()), 'the outbox is empty again').to.equal(0);
    await eventually(async () => {
      const attempts = await stack.deps.alerts.deliveries((await me()).id, rule.id);
      return attempts.some((a) => a.outcome === 'delivered') ? true : undefined;
    });
    expect(eventsOf(rule.id)).to.have.length(1);
  });

  it('when two workers evaluate the same refreshes at once, then each firing is delivered once', async () => {
    const [second] = await stack.startWorkers(1);
    expect(second).to.not.equal(undefined);
    const other = stackEvaluator(stack, queue);
    const { condition, on } = CASES.rank!;
    const rules = await Promise.all(Array.from({ length: 5 }, () => createRule(condition)));
    const refreshes = Array.from({ length: 4 }, (_, i) => `race:${i}`);
    const fired = await Promise.all(
      refreshes.flatMap((id) => [evaluator, other].map((e) => e.evaluate(id, new Date().toISOString(), on, [['rank', 'SOL']]))),
    );
    // Every rule fires at its first refresh only (cooldown 0, but the same edge data is a new edge each refresh here).
    expect(fired.reduce((a, b) => a + b, 0)).to.equal(rules.length * refreshes.length);
    await eventually(
      () => (rules.every((rule) => eventsOf(rule.id).length === refreshes.length) ? true : undefined),
      15_000,
      'every firing',
    );
    const ids = rules.flatMap((rule) => eventsOf(rule.id).map((e) => e.id));
    expect(new Set(ids).size, 'no firing delivered twice').to.equal(ids.length);
    expect(rules.flatMap((rule) => eventsOf(rule.id)).every((e) => e.verifiedBy >= 0)).to.equal(true);
  });
});
