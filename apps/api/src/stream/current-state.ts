/**
 * The current state of a stream topic whose events are changes (news: the posts new since the
 * previous refresh; sentiment: the records that changed), for a client that resumes too far
 * behind to replay (StreamHub): built from the copy the GET routes serve. News: its newest page as
 * `GET /api/market/news?limit=50` returns it; sentiment: every token's record. Every other topic's
 * events are whole, so its newest event is its state (undefined here).
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
