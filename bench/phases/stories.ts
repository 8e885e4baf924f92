/**
 * Stories (issue 47): the story engine's CPU per news refresh at 1,000 and 10,000 posts (the
 * worker's maximum), the first refresh with no state (it replays 144 intervals), and the bytes it
 * keeps in Redis (its state, the snapshot). In this process, on a synthetic stream: 72 hours of
 * chatter from 400 accounts and one planted event an hour from the end.
 * `npm run bench -- --only=stories`. Target: a refresh with state <= 250 ms CPU at 10,000 posts.
 */
import { StoryEngine, type StoriesState, type StoryInput } from '../../apps/worker/src/stories/engine.js';
import { storiesData } from '../../apps/worker/src/stories/stories-refresh.js';

const HOUR = 3_600_000;
const WORDS =
  'market bounce support resistance candle volume dip breakout funding chart bags patience morning weekend profit trend range wick bulls bears green red pump dump rally slow strong weak hold buying selling waiting watching entry exit stop leverage spot futures whale retail macro halving miner staking yield wallet exchange fees gas layer chain node validator airdrop launch roadmap update community'.split(
    ' ',
  );

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
      text: `Orbiter bridge exploit: drained ${i + 2}M, deposits paused`,
      publishedMs: endMs - HOUR + i * 60_000,
    });
  return posts;
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return Math.round((used.user + used.system) / 1000);
};

export interface StoriesOutcome {
  posts: number;
  firstRefreshCpuMs: number;
  refreshCpuMs: number;
  stateBytes: number;
  snapshotBytes: number;
  stories: number;
}

export function measureStories(log: (line: string) => void): StoriesOutcome[] {
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
    log(`stories at ${count} posts: ${JSON.stringify(outcome)}`);
    return outcome;
  });
}

export function judgeStories(outcomes: readonly StoriesOutcome[]): string[] {
  return outcomes.map(
    (o) =>
      `${o.refreshCpuMs <= 250 ? 'PASS' : 'FAIL'}: a refresh at ${o.posts} posts <= 250 ms CPU: ${o.refreshCpuMs} ms (first, with no state: ${o.firstRefreshCpuMs} ms); Redis: state ${(o.stateBytes / 1e6).toFixed(2)} MB, snapshot ${(o.snapshotBytes / 1e3).toFixed(1)} kB; ${o.stories} stories`,
  );
}
