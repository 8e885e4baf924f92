/**
 * Thirty days of history before the benchmark's own refreshes: one real news refresh at the start
 * of the window (the simulator's 10,000 posts, scored), then a refresh every 30 minutes whose
 * records are that one's, varied a little, written by the worker's own history write. Cheaper
 * than 1,440 full refreshes, and the same keys, fields and sizes.
 */
import { writeRefresh } from '../../shared/history/history-store.js';
import { newsEntries } from '../../shared/history/refresh-entries.js';
import { snapshotKeys } from '../../shared/snapshot-keys.js';
import type { SentimentRecord } from '../../shared/market-types.js';
import { labelFor } from '../../apps/worker/src/sentiment/aggregate.js';
import type { JobContext } from '../../apps/worker/src/jobs/job-context.js';
import { refreshNews } from '../../apps/worker/src/jobs/refresh-news.js';

const HALF_HOUR = 30 * 60_000;

/** Seeds `days` of sentiment history ending just before `endMs`; returns the number of refreshes written. */
export async function seedSentimentHistory(context: JobContext, days: number, endMs: number): Promise<number> {
  const startMs = endMs - days * 86_400_000 + 60_000;
  const realNow = context.now;
  context.now = () => new Date(startMs);
  await refreshNews(context);
  context.now = realNow;
  const raw = await context.redis.get(snapshotKeys.snapshot('sentiment'));
  const base = (JSON.parse(raw ?? '{"data":{}}') as { data: Record<string, SentimentRecord> }).data;
  let written = 1;
  for (let atMs = startMs + HALF_HOUR; atMs < endMs - HALF_HOUR; atMs += HALF_HOUR, written += 1) {
    const cachedAt = new Date(atMs).toISOString();
    const sentiment: Record<string, SentimentRecord> = {};
    for (const [token, record] of Object.entries(base)) {
      const wobble = ((written * 7 + token.length) % 11) - 5;
      const mentions = Math.max(1, record.mentions + wobble);
      const score = Math.max(-1, Math.min(1, Math.round((record.score + wobble / 100) * 10_000) / 10_000));
      sentiment[token] = { ...record, score, label: labelFor(score), mentions, cachedAt };
    }
    await writeRefresh(
      context.redis,
      {
        atMs,
        snapshots: [],
        entries: newsEntries({ cachedAt, posts: [], sentiment, previousIds: new Set(), previousSentiment: undefined }),
      },
      context.historyMs,
    );
  }
  return written;
}
