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
import { HACK_TEXTS, HOUR, START, authors, chatter, event } from './planted-posts.js';

const posts: NewsItem[] = [...chatter(72), ...event('hack', authors('witness', 8), HACK_TEXTS, START + 66 * HOUR)].map((post) => ({
  id: post.id,
  text: post.text,
  author: post.author,
  authorFollowers: 100,
  publishedAt: new Date(post.publishedMs).toISOString(),
  tokens: [],
  engagementScore: 1,
}));

/** The provider's side: the posts published by the refresh's time (the only call a news refresh makes). */
const provider = (now: () => Date) =>
  ({ posts: () => Promise.resolve(posts.filter((post) => Date.parse(post.publishedAt) <= now().getTime())) }) as Pick<
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
});
