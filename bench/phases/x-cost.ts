/**
 * What X costs a day for a tracked set (docs/providers.md, "What X costs"): the X adapter as the
 * worker runs it (composite's createAdapters, REFRESH_INTERVAL 30m, the default request budget
 * and query length), against the X fixture server in OpenAPI 2.167's names, over one simulated
 * UTC day of 48 news refreshes. Each tracked account posts POSTS_PER_ACCOUNT_DAY posts a day,
 * spread over the day. Measured: the requests the fixture received, the most in one refresh, and
 * the resources it returned, which is what X bills (posts and users read); dollars at X's
 * pay-per-use prices.
 */
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { createAdapters } from '../../apps/worker/src/providers/composite.js';
import { measureSpend } from '../../apps/worker/src/providers/spend.js';
import { loadConfig } from '../../shared/config.js';
// The measurement is against the X fixture server the tests use too (dev/provider-fixtures), by design (issue 27).
import { startXFixture, X_TOKEN, type FixturePost, type XFixtureUser } from '../../dev/provider-fixtures/x.js';

/** X pay-per-use prices (docs.x.com pricing, as quoted in docs/providers.md): per resource read, once a UTC day. */
export const X_PRICES = { postRead: 0.005, userRead: 0.01 } as const;
/** Posts (not reposts) a tracked account makes a day: the README's assumption. */
export const POSTS_PER_ACCOUNT_DAY = 10;
const REFRESH_MS = 30 * 60_000;
const REFRESHES_A_DAY = 48;
const WINDOW_MS = 72 * 3_600_000;

export interface XCostRow {
  scenario: string;
  accounts: number;
  /** Mean username length of the tracked set. */
  meanNameLength: number;
  refreshes: number;
  requests: number;
  maxRequestsPerRefresh: number;
  /** Distinct search queries (batches). */
  batches: number;
  postsMade: number;
  postsBilled: number;
  usersBilled: number;
  /** Posts made that the day's refreshes had read by its end. */
  postsRead: number;
  dollars: number;
  seconds: number;
}

/** Deterministic usernames of `length(i)` characters. */
function usernames(count: number, length: (i: number) => number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const stem = `u${i.toString(36)}_`;
    return (stem + 'abcdefghijklmnopqrstuvwxyz'.repeat(2)).slice(0, Math.max(stem.length, length(i)));
  });
}

export async function measureXCostScenario(redisUrl: string, scenario: string, names: string[]): Promise<XCostRow> {
  const started = performance.now();
  const users: XFixtureUser[] = names.map((username, i) => ({ id: String(100_000 + i), name: username, username, followers: 1000 + i }));
  const posts: FixturePost[] = [];
  const fixture = await startXFixture({ users, posts });
  const redis = new Redis(redisUrl, { protocol: 2, db: 7 });
  await redis.flushdb();
  const dayStart = Date.now() - REFRESHES_A_DAY * REFRESH_MS;
  const clock = { now: new Date(dayStart) };
  const config = loadConfig({
    NODE_ENV: 'test',
    INDEX_PROVIDER: 'composite',
    ELFA_API_KEY: 'unused',
    X_BEARER_TOKEN: X_TOKEN,
    X_API_URL: fixture.url,
    TRACKED_ACCOUNTS: names.join(','),
  }).providers!;
  const { x } = createAdapters({ config, redis, logger: pino({ level: 'silent' }), count: () => {}, now: () => clock.now });
  let postId = 1_990_000_000_000_000_000n;
  let maxRequestsPerRefresh = 0;
  let postsRead = new Set<string>();
  try {
    for (let refresh = 0; refresh < REFRESHES_A_DAY; refresh += 1) {
      const slotStart = dayStart + refresh * REFRESH_MS;
      // The posts of the half hour before this refresh, spread over the accounts and the slot.
      const perSlot = Math.round((names.length * POSTS_PER_ACCOUNT_DAY) / REFRESHES_A_DAY);
      for (let n = 0; n < perSlot; n += 1) {
        const author = users[(refresh * perSlot + n) % users.length]!;
        postId += 1n;
        fixture.addPost({
          id: String(postId),
          author_id: author.id,
          created_at: new Date(slotStart - REFRESH_MS + ((n + 1) * REFRESH_MS) / (perSlot + 1)).toISOString(),
          text: `post ${n} by ${author.username} on $SOL`,
          cashtags: ['SOL'],
        });
      }
      clock.now = new Date(slotStart);
      const before = fixture.requests.length;
      const { result } = await measureSpend(() => x.posts(new Date(slotStart - WINDOW_MS), 100_000));
      maxRequestsPerRefresh = Math.max(maxRequestsPerRefresh, fixture.requests.length - before);
      postsRead = new Set(result.map((item) => item.id));
    }
    const batches = new Set(fixture.requestsTo('/2/tweets/search/recent').map((request) => request.query.query)).size;
    return {
      scenario,
      accounts: names.length,
      meanNameLength: names.reduce((sum, name) => sum + name.length, 0) / names.length,
      refreshes: REFRESHES_A_DAY,
      requests: fixture.requests.length,
      maxRequestsPerRefresh,
      batches,
      postsMade: posts.length,
      postsBilled: fixture.billed.posts,
      usersBilled: fixture.billed.users,
      postsRead: postsRead.size,
      dollars: fixture.billed.posts * X_PRICES.postRead + fixture.billed.users * X_PRICES.userRead,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await redis.flushdb();
    redis.disconnect();
    await fixture.close();
  }
}

/** 100 and 1,000 accounts with names of 5 to 15 characters (mean 10), and 1,000 at the longest names X allows (15: the fewest per query). */
export async function measureXCost(redisUrl: string, log: (line: string) => void): Promise<XCostRow[]> {
  const realistic = (i: number) => 5 + ((i * 7) % 11);
  const rows: XCostRow[] = [];
  for (const [scenario, names] of [
    ['100 accounts', usernames(100, realistic)],
    ['1,000 accounts', usernames(1000, realistic)],
    ['1,000 accounts, 15-character names', usernames(1000, () => 15)],
  ] as const) {
    const row = await measureXCostScenario(redisUrl, scenario, names);
    log(
      `x cost, ${scenario}: ${row.requests} requests a day (at most ${row.maxRequestsPerRefresh} a refresh), ${row.postsBilled} posts and ${row.usersBilled} users billed, $${row.dollars.toFixed(2)} a day`,
    );
    rows.push(row);
  }
  return rows;
}

export function renderXCost(rows: readonly XCostRow[]): string[] {
  const lines = [
    '## X: requests and dollars a day for the tracked accounts (issue 27)',
    '',
    `The X adapter as the worker runs it (REFRESH_INTERVAL 30m: ${REFRESHES_A_DAY} news refreshes a UTC day; X_REQUESTS_PER_REFRESH 50, X_QUERY_MAX_LENGTH 512) against the X fixture server in OpenAPI 2.167's names, each account posting ${POSTS_PER_ACCOUNT_DAY} posts a day. ` +
      `Requests and billed resources are counted by the fixture; dollars at X's pay-per-use prices: $${X_PRICES.postRead} a post read, $${X_PRICES.userRead} a user read (docs/providers.md). ` +
      'Before (one timeline call per account per refresh, user objects expanded on every page): 48 x accounts requests a day.',
    '',
    '| tracked accounts | mean name length | batches (queries) | X requests a day | most in one refresh | posts made / billed / read | users billed | $ a day | before: requests a day |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.scenario} | ${row.meanNameLength.toFixed(1)} | ${row.batches} | ${row.requests} | ${row.maxRequestsPerRefresh} | ${row.postsMade} / ${row.postsBilled} / ${row.postsRead} | ${row.usersBilled} | ${row.dollars.toFixed(2)} | ${row.accounts * REFRESHES_A_DAY} |`,
    ),
    '',
  ];
  return lines;
}
