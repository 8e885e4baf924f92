/**
 * The `story` and `caller` conditions (issues 47 and 48) through the worker's news refresh: the
 * refresh job itself (apps/worker/src/jobs/refresh-news.ts, with a planted post stream as its
 * provider) records the calls, computes the stories and evaluates the rules created over HTTP;
 * the stack's delivery worker sends each firing to a loopback receiver that verifies it. The
 * stack's own worker only delivers (WORKER_ROLES=delivery): these refreshes are the only ones.
 */
import { expect } from 'chai';
import type { Queue } from 'bullmq';
import { createJobContext } from '../../../apps/worker/src/jobs/create-job-context.js';
import { refreshNews } from '../../../apps/worker/src/jobs/refresh-news.js';
import { recordCalls, recordTokenBreakouts } from '../../../apps/worker/src/callers/record-calls.js';
import type { MarketProvider } from '../../../apps/worker/src/providers/market-provider.js';
import type { AlertEvent } from '../../../shared/alerts/alert-types.js';
import { ALERT_DELIVERY_QUEUE, type DeliveryJobData } from '../../../shared/alerts/delivery-queue.js';
import { DEFAULT_CALLERS } from '../../../shared/callers/callers-config.js';
import { DAY_MS, HOUR_MS } from '../../../shared/durations.js';
import { alertKeys } from '../../../shared/keyspace.js';
import { createLogger } from '../../../shared/logger.js';
import type { NewsItem, TrendingToken } from '../../../shared/market-types.js';
import { snapshotKeys } from '../../../shared/snapshot-keys.js';
import type { StoriesSnapshotData, Story } from '../../../shared/stories.js';
import { stackEvaluator } from '../../support/alert-evaluator.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { callAs, loggedInUsers } from '../../api/auth/helpers.js';
import { LISTING_TEXTS, START, authors, chatter, event } from '../stories/planted-posts.js';

/** The planted stream moved to 2030, whole days later: the callers' day lists must not have expired already. */
const SHIFT = Date.UTC(2030, 2, 4) - START;
/** The listing of $ZETA starts here; seven accounts write about it within the hour. */
const EVENT = START + SHIFT + 66 * HOUR_MS;

const newsItem = (id: string, author: string, text: string, publishedMs: number, tokens: string[]): NewsItem => ({
  id,
  text,
  author,
  authorFollowers: 5000,
  publishedAt: new Date(publishedMs).toISOString(),
  tokens,
  engagementScore: 1,
});
const planted: NewsItem[] = [
  ...chatter(72).map((post) => newsItem(post.id, post.author, post.text, post.publishedMs + SHIFT, [])),
  ...event('listing', authors('lister', 7), LISTING_TEXTS, EVENT - SHIFT).map((post) =>
    newsItem(post.id, post.author, post.text, post.publishedMs + SHIFT, ['ZETA']),
  ),
  // Two accounts with a record make a new call while the story runs: one often right, one never.
  newsItem('sharp-new', 'Sharp', 'early on $NEWT, accumulating', EVENT + 10 * 60_000, ['NEWT']),
  newsItem('dull-new', 'dull', 'loading $NEWD here', EVENT + 10 * 60_000, ['NEWD']),
  // Sharp again, seen by two overlapping refreshes at once.
  newsItem('sharp-again', 'Sharp', 'next one: $OTHR', EVENT + 130 * 60_000, ['OTHR']),
];
const trending = (...tokens: string[]): TrendingToken[] =>
  tokens.map((token) => ({ token, name: token, mentions: 100, smartMoneyMentions: 10, priceChange24h: 0 }));

describe('alerts: a new story and a good caller’s new call, through the news refresh', function () {
  this.timeout(60_000);
  let stack: Stack;
  let receiver: Receiver;
  let apiToken: string;
  /** Read once and checked: read at each look, one failed answer of /api/auth/me would read as no firings (a loaded CI run saw the firing, then none). */
  let userId: string;
  let queue: Queue<DeliveryJobData>;
  const rules: Record<string, { id: string; secret: string }> = {};
  /** The stories each refresh listed (its 7-day window), from the event's start, every 30 minutes. */
  const listed: Story[][] = [];

  const createRule = async (name: string, condition: Record<string, unknown>) => {
    const answer = await callAs(stack, apiToken, 'POST', '/api/alerts', {
      name,
      condition,
      channels: [{ type: 'webhook', url: receiver.url() }],
    });
    expect(answer.status, JSON.stringify(answer.json)).to.equal(201);
    const rule = answer.json as { id: string; secret: string };
    receiver.secrets.push(rule.secret);
    rules[name] = rule;
  };
  /** The rule's firings as its user's feed recorded them, in the evaluation's own step: complete once the refresh returned. */
  const firingsOf = async (name: string) => {
    const entries = await stack.redis.xrange(alertKeys.firings(userId), '-', '+');
    return entries
      .map(([, fields]) => JSON.parse(fields[fields.indexOf('event') + 1] ?? '{}') as AlertEvent)
      .filter((event) => event.data.ruleId === rules[name]?.id);
  };
  /** The rule's events the receiver got and verified, one per webhook-id. */
  const deliveredOf = (name: string) => {
    const byId = new Map<string, AlertEvent>();
    for (const got of receiver.received) {
      const event = JSON.parse(got.body) as AlertEvent;
      if (event.data.ruleId === rules[name]?.id && got.verifiedBy >= 0) byId.set(got.id, event);
    }
    return [...byId.values()];
  };
  /** What the receiver got for the rule, once it got as many events as were fired: the same matches, signed. */
  const expectDelivered = async (name: string) => {
    const fired = await firingsOf(name);
    const delivered = await eventually(() => (deliveredOf(name).length >= fired.length ? deliveredOf(name) : undefined), 10_000);
    expect(delivered.map((event) => event.data.matches)).to.deep.equal(fired.map((event) => event.data.matches));
  };
  /** A refresh worker: the news refresh job on the stack's Redis at the clock it is given, serving the planted posts published by then. */
  const refreshWorker = () => {
    let clock = 0;
    const provider = {
      posts: () => Promise.resolve(planted.filter((post) => Date.parse(post.publishedAt) <= clock)),
    } as Pick<MarketProvider, 'posts'> as MarketProvider;
    const logger = createLogger({ logLevel: 'silent' }, 'test');
    const context = {
      ...createJobContext({ redis: stack.redis, provider, logger, now: () => new Date(clock), historyMs: 0 }),
      alerts: stackEvaluator(stack, queue),
    };
    return async (atMs: number): Promise<Story[]> => {
      clock = atMs;
      await refreshNews(context);
      const body = JSON.parse((await stack.redis.get(snapshotKeys.snapshot('stories'))) as string) as { data: StoriesSnapshotData };
      return body.data.windows['7d'];
    };
  };

  before(async () => {
    stack = await startStack({ env: { ALERTS_ALLOW_LOOPBACK: 'true', REFRESH_INTERVAL: '24h', WORKER_ROLES: 'delivery' } });
    receiver = await startReceiver();
    apiToken = (await loggedInUsers(stack, ['stella'])).stella as string;
    const me = await callAs(stack, apiToken, 'GET', '/api/auth/me');
    expect(me.status, JSON.stringify(me.json)).to.equal(200);
    userId = (me.json as { id: string }).id;
    queue = stack.queue<DeliveryJobData>(ALERT_DELIVERY_QUEUE);
    // Records of two accounts, days before: Sharp called AAA, BBB and CCC (two broke out a day later:
    // 2 hits, 1 miss), dull called DDD, EEE and FFF (none did: 3 misses).
    const config = DEFAULT_CALLERS;
    const past = EVENT - 10 * DAY_MS;
    await recordTokenBreakouts(stack.redis, trending('BTC'), past, config); // seeds the top
    await recordCalls(stack.redis, [], past, config); // seeds the calls
    const calls = [
      ...['AAA', 'BBB', 'CCC'].map((token) => newsItem(`sharp-${token}`, 'Sharp', `$${token} looks early`, past + HOUR_MS, [token])),
      ...['DDD', 'EEE', 'FFF'].map((token) => newsItem(`dull-${token}`, 'dull', `$${token} to the moon`, past + HOUR_MS, [token])),
    ];
    expect(await recordCalls(stack.redis, calls, past + 2 * HOUR_MS, config)).to.equal(6);
    await recordTokenBreakouts(stack.redis, trending('BTC', 'AAA', 'BBB'), past + DAY_MS, config);

    await createRule('any story', { type: 'story' });
    await createRule('ZETA story', { type: 'story', token: '$zeta', minAuthors: 3 });
    await createRule('SOL story', { type: 'story', token: 'SOL' });
    await createRule('six authors', { type: 'story', minAuthors: 6 });
    await createRule('good caller', { type: 'caller', minHitRate: 0.5, minCalls: 3 });
    await createRule('solana caller', { type: 'caller', chain: 'solana' });
    const refreshAt = refreshWorker();
    // Just before the event, then every 30 minutes for two hours while it runs.
    for (let at = EVENT; at <= EVENT + 2 * HOUR_MS; at += HOUR_MS / 2) listed.push(await refreshAt(at));
  });
  after(async () => {
    await queue.close();
    await receiver.close();
    await stack?.close();
  });

  it('when a story with several authors appears, then a story rule fires once for it, not again while it continues; one asking more authors fires when it has them', async () => {
    const ids = listed.map((stories) => stories.map((story) => story.id));
    expect(ids[0], 'before the event: no story').to.deep.equal([]);
    expect(new Set(ids.flat()).size, `one storyline across the refreshes: ${JSON.stringify(ids)}`).to.equal(1);
    expect(ids.slice(1).every((list) => list.length === 1)).to.equal(true);
    // First listed with 4 authors, then 7: the rule asking for 6 fires at the second refresh.
    const [first, second] = listed.slice(1).map((stories) => stories[0]!);
    expect([first!.authors, second!.authors]).to.deep.equal([4, 7]);
    const matchOf = (story: Story) => ({
      storyId: story.id,
      title: story.title,
      tokens: story.tokens.join(','),
      authors: story.authors,
      firstPoster: story.firstPoster,
      firstSeenAt: story.firstSeenAt,
      path: `/api/market/stories/${story.id}`,
    });
    for (const [name, story, at] of [
      ['any story', first, EVENT + HOUR_MS / 2],
      ['six authors', second, EVENT + HOUR_MS],
    ] as const) {
      const firings = await firingsOf(name);
      expect(firings, `${name}: one firing over five refreshes`).to.have.length(1);
      expect(firings[0]!.data.refreshedAt).to.equal(new Date(at).toISOString());
      expect(firings[0]!.data.matches).to.deep.equal([matchOf(story!)]);
      await expectDelivered(name);
    }
  });

  it('when a story is about one token, then a rule for that token fires for it and a rule for another token never', async () => {
    expect(listed[1]![0]!.tokens).to.deep.equal(['ZETA']);
    const zeta = await firingsOf('ZETA story');
    expect(zeta.map((event) => event.data.matches.map((match) => match.storyId))).to.deep.equal([[listed[1]![0]!.id]]);
    await expectDelivered('ZETA story');
    expect(await firingsOf('SOL story')).to.deep.equal([]);
    expect(deliveredOf('SOL story')).to.deep.equal([]);
  });

  it('when an account with a good record makes a new call, then a caller rule fires with its figures before the call; not for an account below the hit rate', async () => {
    // Sharp (2 hits, 1 miss: 0.6667 over 3 calls) calls NEWT; dull (0 over 3) calls NEWD; the listers call ZETA with no record.
    const [calling] = await firingsOf('good caller');
    expect(calling!.data.matches).to.deep.equal([
      {
        username: 'Sharp',
        token: 'NEWT',
        address: null,
        chain: null,
        calledAt: new Date(EVENT + 10 * 60_000).toISOString(),
        postId: 'sharp-new',
        text: 'early on $NEWT, accumulating',
        calls: 3,
        hits: 2,
        hitRate: 0.6667,
        medianLeadMinutes: 23 * 60,
      },
    ]);
    expect(calling!.data.refreshedAt, 'the refresh that saw the post').to.equal(new Date(EVENT + HOUR_MS / 2).toISOString());
    expect(await firingsOf('solana caller'), 'a ticker call is no address on a chain').to.deep.equal([]);
    await expectDelivered('good caller');
  });

  it('when two workers run overlapping refreshes that both see a new call, then it fires once', async () => {
    const before = (await firingsOf('good caller')).length;
    const [one, other] = [refreshWorker(), refreshWorker()];
    await Promise.all([one(EVENT + 150 * 60_000), other(EVENT + 150 * 60_000 + 1000)]);
    await Promise.all([one(EVENT + 150 * 60_000 + 2000), other(EVENT + 150 * 60_000 + 2000)]);
    const firings = (await firingsOf('good caller')).slice(before);
    expect(firings.flatMap((event) => event.data.matches.map((match) => match.postId))).to.deep.equal(['sharp-again']);
    // Its figures now count the pending NEWT call: 4 calls, still 2 hits and 1 miss.
    expect(firings[0]!.data.matches[0]).to.include({ calls: 4, hits: 2, hitRate: 0.6667 });
    await expectDelivered('good caller');
  });
});
