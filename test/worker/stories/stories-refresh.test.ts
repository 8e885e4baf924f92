/**
 * Stories through the worker's news refresh, against real Redis: the engine resumes from the state
 * the previous refresh stored, and the snapshot lists the planted story under one id each refresh.
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { createJobContext } from '../../../apps/worker/src/jobs/create-job-context.js';
import { refreshNews } from '../../../apps/worker/src/jobs/refresh-news.js';
import type { MarketProvider } from '../../../apps/worker/src/providers/market-provider.js';
import { storiesKeys } from '../../../shared/keyspace.js';
import { createLogger } from '../../../shared/logger.js';
import type { NewsItem } from '../../../shared/market-types.js';
import { snapshotKeys } from '../../../shared/snapshot-keys.js';
import type { StoriesSnapshotData } from '../../../shared/stories.js';
import { sharedRedis } from '../../support/shared-redis.js';
import { postPolarity, scorePost, type PostScorer } from '../../../apps/worker/src/sentiment/aggregate.js';
import { HACK_TEXTS, HOUR, LISTING_TEXTS, START, authors, chatter, event } from './planted-posts.js';

const posts: NewsItem[] = [...chatter(72), ...event('hack', authors('witness', 8), HACK_TEXTS, START + 66 * HOUR)].map((post) => ({
  id: post.id,
  text: post.text,
  author: post.author,
  authorFollowers: 100,
  publishedAt: new Date(post.publishedMs).toISOString(),
  tokens: [],
  engagementScore: 1,
}));

/** The listing told by eight authors in eight texts, half of them with the token as the provider gives it ("$zeta"), half with none. */
const listingTexts = [...LISTING_TEXTS, 'Kraken listing for $ZETA goes live Friday', '$ZETA on Kraken: listing confirmed, Friday open'];
const listingPosts: NewsItem[] = [...chatter(72), ...event('listing', authors('lister', 8), listingTexts, START + 66 * HOUR)].map(
  (post) => ({
    id: post.id,
    text: post.text,
    author: post.author,
    authorFollowers: 100,
    publishedAt: new Date(post.publishedMs).toISOString(),
    tokens: post.id.startsWith('listing') && Number(post.id.slice('listing'.length)) % 2 === 0 ? ['$zeta'] : [],
    engagementScore: 1,
  }),
);

/** The provider's side: the posts published by the refresh's time (the only call a news refresh makes). */
const provider = (now: () => Date, all: readonly NewsItem[] = posts) =>
  ({ posts: () => Promise.resolve(all.filter((post) => Date.parse(post.publishedAt) <= now().getTime())) }) as Pick<
    MarketProvider,
    'posts'
  > as MarketProvider;

describe('stories in the news refresh (worker, real Redis)', () => {
  let redis: Redis;
  let clock = 0;
  before(async () => {
    redis = (await sharedRedis()).client('worker');
  });
  after(async () => {
    await redis.quit();
  });

  it('when refreshes follow one another, then the planted story is listed with one id and the state is kept between them', async () => {
    const now = () => new Date(clock);
    const context = createJobContext({
      redis,
      provider: provider(now),
      logger: createLogger({ logLevel: 'silent' }, 'test'),
      now,
      historyMs: 0,
    });
    const ids: string[][] = [];
    for (let at = START + 66 * HOUR + HOUR / 2; at <= START + 69 * HOUR; at += HOUR / 2) {
      clock = at;
      await refreshNews(context);
      const body = JSON.parse((await redis.get(snapshotKeys.snapshot('stories'))) as string) as {
        data: StoriesSnapshotData;
        cachedAt: string;
      };
      expect(body.cachedAt).to.equal(new Date(at).toISOString());
      ids.push(body.data.windows['24h'].map((story) => story.id));
      expect(await redis.exists(storiesKeys.state())).to.equal(1);
    }
    expect(ids.every((list) => list.length === 1)).to.equal(true);
    expect(new Set(ids.flat()).size).to.equal(1);
    const last = JSON.parse((await redis.get(snapshotKeys.snapshot('stories'))) as string) as { data: StoriesSnapshotData };
    const story = last.data.windows['24h'][0];
    expect(story?.authors).to.be.at.least(6);
    expect(story?.smartAuthors).to.equal(story?.authors);
    expect(last.data.scores[story?.id as string]?.length).to.be.at.least(2);
  });

  it("when a story's posts are scored, then its sentiment is the mean of their scores as the sentiment records take them, and no post is scored twice in a refresh", async () => {
    const now = () => new Date(clock);
    const context = createJobContext({
      redis,
      provider: provider(now, listingPosts),
      logger: createLogger({ logLevel: 'silent' }, 'test'),
      now,
      historyMs: 0,
    });
    await redis.del(storiesKeys.state());
    // Not remembering: every call is a scoring.
    const scoredTexts: string[] = [];
    const counting: PostScorer = (text, tickers) => {
      scoredTexts.push(text);
      return scorePost(text, tickers);
    };
    context.scorePost = counting;
    for (let at = START + 66 * HOUR + HOUR / 2; at <= START + 69 * HOUR; at += HOUR / 2) {
      clock = at;
      scoredTexts.length = 0;
      await refreshNews(context);
      expect(scoredTexts.length, `scorings at ${new Date(at).toISOString()}`).to.equal(new Set(scoredTexts).size);
    }
    const last = JSON.parse((await redis.get(snapshotKeys.snapshot('stories'))) as string) as { data: StoriesSnapshotData };
    const story = last.data.windows['24h'][0];
    expect(story?.terms.join(' ')).to.match(/listing|kraken|zeta/i);
    const byId = new Map(listingPosts.map((post) => [post.id, post]));
    const storyPosts = (story?.postIds ?? []).map((id) => byId.get(id) as NewsItem);
    // Both kinds: posts the sentiment step scored (with the token) and posts it left out (none).
    expect(storyPosts.some((post) => post.tokens.length > 0)).to.equal(true);
    expect(storyPosts.some((post) => post.tokens.length === 0)).to.equal(true);
    const sum = storyPosts.reduce((total, post) => total + postPolarity(post), 0);
    expect(story?.sentiment).to.equal(Math.round((sum / storyPosts.length) * 1000) / 1000);
    expect(storyPosts.map((post) => postPolarity(post)).some((polarity) => polarity !== 0)).to.equal(true);
  });
});
