/**
 * Stories (issue 47): the story engine's CPU per news refresh at 1,000 and 10,000 posts (the
 * worker's maximum) and its first refresh with no state (it replays at most `warmupIntervals`),
 * in this process on a synthetic stream (72 hours of chatter from 400 accounts, one event planted
 * an hour before the end); then at 10,000 posts the whole news refresh (refreshNews over a private
 * Redis, history on) against the engine's part of it, and what stories keep in Redis: the state,
 * the snapshot and the events stream per day. The reads are measured against cached trending on
 * the bench's stack (against-trending.ts). `npm run bench -- --only=stories`.
 * Targets: a refresh with state <= 250 ms CPU at 10,000 posts; the engine <= 10 % of the news refresh's CPU.
 */
import { computeStories, storiesData } from '../../apps/worker/src/stories/stories-refresh.js';
import { StoryEngine, type StoriesState, type StoryInput } from '../../apps/worker/src/stories/engine.js';
import { createJobContext } from '../../apps/worker/src/jobs/create-job-context.js';
import { refreshNews } from '../../apps/worker/src/jobs/refresh-news.js';
import type { MarketProvider } from '../../apps/worker/src/providers/market-provider.js';
import { median } from '../../dev/numbers.js';
import { startTestRedis } from '../../dev/redis-server.js';
import { storiesKeys } from '../../shared/keyspace.js';
import { createLogger } from '../../shared/logger.js';
import type { NewsItem } from '../../shared/market-types.js';
import { createRedis } from '../../shared/redis.js';
import { historyKeys, snapshotKeys } from '../../shared/snapshot-keys.js';
import type { StoriesSnapshotData } from '../../shared/stories.js';
import type { Stack } from '../lib/stack.js';
import type { ReadToJudge } from './against-trending.js';

const HOUR = 3_600_000;
const WORDS =
  'market bounce support resistance candle volume dip breakout funding chart bags patience morning weekend profit trend range wick bulls bears green red pump dump rally slow strong weak hold buying selling waiting watching entry exit stop leverage spot futures whale retail macro halving miner staking yield wallet exchange fees gas layer chain node validator airdrop launch roadmap update community'.split(
    ' ',
  );

/** One event, told differently by each witness (identical texts would be one post and its reposts). */
const EVENT_TEXTS = [
  'Orbiter bridge exploit: drained overnight, deposits paused',
  'the orbiter bridge was drained, exploit confirmed by the team',
  'orbiter bridge exploit looks bad, funds drained to a mixer',
  'Orbiter bridge drained. Pause your deposits, exploit still live',
  'exploit on orbiter bridge: attacker drained the hot wallet',
  'huge exploit, orbiter bridge drained, stay safe out there',
];

function stream(count: number, endMs: number): StoryInput[] {
  let seed = 7;
  const random = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  const posts: StoryInput[] = [];
  for (let i = 0; i < count; i += 1) {
    const words = Array.from({ length: 12 }, () => WORDS[Math.floor(random() * WORDS.length)]);
    posts.push({
      id: `p${i}`,
      author: `a${Math.floor(random() * 400)}`,
      text: `$SOL ${words.join(' ')} ${i}`,
      publishedMs: endMs - random() * 72 * HOUR,
    });
  }
  for (let i = 0; i < 12; i += 1)
    posts.push({
      id: `e${i}`,
      author: `w${i}`,
      text: EVENT_TEXTS[i % EVENT_TEXTS.length] as string,
      publishedMs: endMs - HOUR + i * 60_000,
    });
  return posts;
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return Math.round((used.user + used.system) / 1000);
};

export interface EngineOutcome {
  posts: number;
  firstRefreshCpuMs: number;
  refreshCpuMs: number;
  stateBytes: number;
  snapshotBytes: number;
  stories: number;
}

/** The news refresh at 10,000 posts, one per 30-minute interval after a first (the replay). */
export interface RefreshShareOutcome {
  posts: number;
  firstRefreshCpuMs: number;
  /** Per measured refresh: the whole refreshNews, and computeStories alone on the same state just before it. */
  refreshCpuMs: number[];
  engineCpuMs: number[];
  stories: number;
  stateBytes: number;
  snapshotBytes: number;
  /** The stories events stream: Redis's bytes per entry (one entry per news refresh). */
  eventBytesPerRefresh: number;
}

export interface StoriesOutcome {
  engine: EngineOutcome[];
  refresh: RefreshShareOutcome;
}

const REFRESHES_PER_DAY = (24 * HOUR) / (HOUR / 2);

function measureEngine(log: (line: string) => void): EngineOutcome[] {
  const endMs = Date.UTC(2031, 0, 1);
  return [1_000, 10_000].map((count) => {
    const posts = stream(count, endMs);
    let since = process.cpuUsage();
    const first = new StoryEngine({ windowMs: 7 * 24 * HOUR });
    first.refresh(posts, endMs);
    const saved = JSON.stringify(first.state());
    const firstRefreshCpuMs = cpuMs(since);
    // A following refresh as the worker runs it: the state parsed from Redis, one interval later.
    since = process.cpuUsage();
    const engine = new StoryEngine({ windowMs: 7 * 24 * HOUR }, JSON.parse(saved) as StoriesState);
    const lines = engine.refresh(posts, endMs + HOUR / 2);
    const state = JSON.stringify(engine.state());
    const snapshot = JSON.stringify({ data: storiesData(lines, endMs + HOUR / 2), cachedAt: new Date(endMs).toISOString() });
    const outcome = {
      posts: count,
      firstRefreshCpuMs,
      refreshCpuMs: cpuMs(since),
      stateBytes: state.length,
      snapshotBytes: snapshot.length,
      stories: lines.length,
    };
    log(`stories engine at ${count} posts: ${JSON.stringify(outcome)}`);
    return outcome;
  });
}

async function measureRefreshShare(log: (line: string) => void, count = 10_000, refreshes = 6): Promise<RefreshShareOutcome> {
  const server = await startTestRedis();
  const redis = createRedis({ redisUrl: server.url, redisTlsInsecure: false }, 'worker', 'bench-stories');
  try {
    const firstMs = Math.floor(Date.now() / (HOUR / 2)) * (HOUR / 2) - 4 * HOUR;
    // The stream runs to the last refresh (its event two hours after the first), so each refresh finds new posts.
    const posts: NewsItem[] = stream(count, firstMs + (refreshes * HOUR) / 2).map((post) => ({
      id: post.id,
      text: post.text,
      author: post.author,
      authorFollowers: 1000,
      publishedAt: new Date(post.publishedMs).toISOString(),
      tokens: post.text.startsWith('$SOL') ? ['SOL'] : [],
      engagementScore: 1,
    }));
    let clock = firstMs;
    const visible = () => posts.filter((post) => Date.parse(post.publishedAt) <= clock && Date.parse(post.publishedAt) > clock - 72 * HOUR);
    const context = createJobContext({
      redis,
      provider: { posts: () => Promise.resolve(visible()) } as Pick<MarketProvider, 'posts'> as MarketProvider,
      logger: createLogger({ logLevel: 'warn' }, 'bench-stories'),
      now: () => new Date(clock),
    });
    let since = process.cpuUsage();
    await refreshNews(context);
    const firstRefreshCpuMs = cpuMs(since);
    const refreshCpuMs: number[] = [];
    const engineCpuMs: number[] = [];
    for (let k = 1; k <= refreshes; k += 1) {
      clock = firstMs + (k * HOUR) / 2;
      // The engine's part: what refreshNews runs, on the state it will find (computeStories writes nothing).
      const shown = visible().sort((a, b) => b.publishedAt.localeCompare(a.publishedAt));
      since = process.cpuUsage();
      await computeStories(context, shown, clock);
      engineCpuMs.push(cpuMs(since));
      since = process.cpuUsage();
      await refreshNews(context);
      refreshCpuMs.push(cpuMs(since));
    }
    const eventsKey = historyKeys.events('stories');
    const [entries, eventBytes, stateBytes, snapshot] = await Promise.all([
      redis.xlen(eventsKey),
      redis.memory('USAGE', eventsKey),
      redis.memory('USAGE', storiesKeys.state()),
      redis.get(snapshotKeys.snapshot('stories')),
    ]);
    const stories = (JSON.parse(snapshot ?? '{"data":{"windows":{"24h":[]}}}') as { data: { windows: { '24h': unknown[] } } }).data.windows[
      '24h'
    ];
    const outcome: RefreshShareOutcome = {
      posts: count,
      firstRefreshCpuMs,
      refreshCpuMs,
      engineCpuMs,
      stories: stories.length,
      stateBytes: Number(stateBytes) || 0,
      snapshotBytes: snapshot?.length ?? 0,
      eventBytesPerRefresh: Math.round((Number(eventBytes) || 0) / Math.max(1, entries)),
    };
    log(`news refresh at ${count} posts: ${JSON.stringify(outcome)}`);
    return outcome;
  } finally {
    redis.disconnect();
    await server.stop();
  }
}

export async function measureStories(log: (line: string) => void): Promise<StoriesOutcome> {
  return { engine: measureEngine(log), refresh: await measureRefreshShare(log) };
}

export function judgeStories({ engine, refresh }: StoriesOutcome): string[] {
  const share = median(refresh.engineCpuMs.map((ms, i) => ms / (refresh.refreshCpuMs[i] as number)));
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
  return [
    ...engine.map(
      (o) =>
        `${o.refreshCpuMs <= 250 ? 'PASS' : 'FAIL'}: the engine alone, a refresh at ${o.posts} posts <= 250 ms CPU: ${o.refreshCpuMs} ms (first, with no state: ${o.firstRefreshCpuMs} ms); state ${(o.stateBytes / 1e6).toFixed(2)} MB; ${o.stories} stories`,
    ),
    `${share <= 0.1 ? 'PASS' : 'FAIL'}: the engine <= 10 % of a news refresh's CPU at ${refresh.posts} posts: ${(share * 100).toFixed(0)} % (median of ${refresh.refreshCpuMs.length} refreshes; engine ${median(refresh.engineCpuMs)} ms of ${median(refresh.refreshCpuMs)} ms; each: ${refresh.engineCpuMs.map((ms, i) => `${ms}/${refresh.refreshCpuMs[i]}`).join(', ')} ms); the first refresh (replay) ${refresh.firstRefreshCpuMs} ms`,
    `stories in Redis: state ${(refresh.stateBytes / 1e6).toFixed(2)} MB (one hash, its fields replaced each refresh, reread only when another worker wrote it), snapshot ${kb(refresh.snapshotBytes)} (${refresh.stories} stories in 24 h), events stream ${kb(refresh.eventBytesPerRefresh)} a refresh: ${kb(refresh.eventBytesPerRefresh * REFRESHES_PER_DAY)} a day at REFRESH_INTERVAL=30m (kept HISTORY_DAYS)`,
  ];
}

/** The reads to judge against cached trending: the 24 hours' list and its first story by id, from the stack's news refresh. */
export async function storyReads(stack: Stack): Promise<ReadToJudge[]> {
  const redis = createRedis({ redisUrl: stack.redis.url, redisTlsInsecure: false }, 'worker', 'bench-stories-reads');
  try {
    const raw = await redis.get(snapshotKeys.snapshot('stories'));
    const top = raw === null ? undefined : (JSON.parse(raw) as { data: StoriesSnapshotData }).data.windows['24h'][0];
    if (!top) throw new Error("the stack's news refresh told no story from the simulator's posts: no story to read by id");
    return [
      { label: 'stories, 24 h', url: '/api/market/stories?window=24h' },
      { label: `a story by id (${top.posts} posts)`, url: `/api/market/stories/${top.id}` },
    ];
  } finally {
    redis.disconnect();
  }
}
