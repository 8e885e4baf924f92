/**
 * The current state of a topic whose events are changes (news, sentiment), for a client resuming
 * too far behind (StreamHub), from the copy the GET routes serve; other topics' events are whole.
 */
import { NEWS_MAX_LIMIT } from '../market/market-queries.js';
import type { SnapshotCache } from '../market/snapshot-cache.js';
import type { Topic } from './stream-hub.js';

export function currentState(snapshots: SnapshotCache): (topic: Topic) => { atMs: number; body: string } | undefined {
  return (topic) => {
    if (topic === 'news') {
      const news = snapshots.peek('news');
      return news && { atMs: Date.parse(news.cachedAt), body: news.view.pages.page(1, NEWS_MAX_LIMIT).body.toString() };
    }
    if (topic === 'sentiment') {
      const sentiment = snapshots.peek('sentiment');
      if (!sentiment) return undefined;
      const records = [...sentiment.view.byToken.values()].map((record) => record.body.toString()).join(',');
      return { atMs: Date.parse(sentiment.cachedAt), body: `{"data":[${records}],"cachedAt":${JSON.stringify(sentiment.cachedAt)}}` };
    }
    return undefined;
  };
}
