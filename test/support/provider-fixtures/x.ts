/**
 * X API v2 as docs/providers.md describes it: `/2/users/by` with partial errors for unknown
 * names, user timelines paged by `next_token` (two posts a page here), `since_id` and
 * `start_time`, an empty page without `data`, fields omitted rather than null, both metric
 * names (retweet_count, repost_count), long posts in `note_tweet`.
 */
import { ETH_CA, SOL_CA } from './elfa.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

export const X_TOKEN = 'AAAAAAAAAAAAAAAAAAAAAfixture%2Bbearer%3Dtoken';

export const X_USERS = [
  { id: '1001', name: 'Alice', username: 'CryptoAlice', public_metrics: { followers_count: 52000, following_count: 300, tweet_count: 9000, listed_count: 40 } },
  { id: '1002', name: 'Bob', username: 'bob_trades', public_metrics: { followers_count: 8000, following_count: 900, tweet_count: 1200, listed_count: 3 } },
];

export interface FixturePost {
  id: string;
  author_id: string;
  text: string;
  created_at: string;
  public_metrics?: Record<string, number>;
  entities?: { cashtags?: { start: number; end: number; tag: string }[] };
  note_tweet?: { text: string };
  edit_history_tweet_ids: string[];
}

const PAGE = 2;

export interface XFixture extends FixtureServer {
  posts: FixturePost[];
  addPost(post: Omit<FixturePost, 'edit_history_tweet_ids'>): void;
}

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
const metrics = (like: number, retweet: number, reply: number, quote: number, bookmark: number) => ({
  like_count: like,
  retweet_count: retweet,
  reply_count: reply,
  quote_count: quote,
  bookmark_count: bookmark,
  impression_count: like * 50,
});

export function fixturePosts(): FixturePost[] {
  const post = (p: Omit<FixturePost, 'edit_history_tweet_ids'>): FixturePost => ({ ...p, edit_history_tweet_ids: [p.id] });
  return [
    post({ id: '1900000000000000105', author_id: '1001', created_at: hoursAgo(1), text: `$SOL looking strong here, adding more. Watching ${ETH_CA.toLowerCase()} too`, public_metrics: metrics(100, 10, 5, 2, 3), entities: { cashtags: [{ start: 0, end: 4, tag: 'SOL' }] } }),
    post({
      id: '1900000000000000104',
      author_id: '1001',
      created_at: hoursAgo(3),
      text: 'A long thread on $PEPE, and why I think the meme season is not over yet…',
      note_tweet: { text: `A long thread on $PEPE, and why I think the meme season is not over yet. ${'Lots of detail. '.repeat(20)}I also hold $SOL.` },
      // OpenAPI 2.167's names.
      public_metrics: { like_count: 40, repost_count: 4, reply_count: 2, quote_count: 0, bookmark_count: 1 },
      entities: { cashtags: [{ start: 17, end: 22, tag: 'PEPE' }] },
    }),
    post({ id: '1900000000000000103', author_id: '1001', created_at: hoursAgo(30), text: 'Is $BTC topping? Not sure.', public_metrics: metrics(12, 1, 9, 0, 0), entities: { cashtags: [{ start: 3, end: 7, tag: 'BTC' }] } }),
    post({ id: '1900000000000000102', author_id: '1002', created_at: hoursAgo(2), text: `Bought more $SOL and $BTC. ${SOL_CA} is pumping`, public_metrics: metrics(20, 3, 1, 1, 0), entities: { cashtags: [{ start: 12, end: 16, tag: 'SOL' }, { start: 21, end: 25, tag: 'BTC' }] } }),
    post({ id: '1900000000000000101', author_id: '1002', created_at: hoursAgo(50), text: 'gm', public_metrics: metrics(0, 0, 0, 0, 0) }),
    post({ id: '1900000000000000100', author_id: '1002', created_at: hoursAgo(100), text: 'old news about $ETH', public_metrics: metrics(5, 0, 0, 0, 0) }),
  ];
}

export async function startXFixture(): Promise<XFixture> {
  const posts = fixturePosts();
  const server = await startFixtureServer(
    {
      '/2/users/by': (request) => {
        const names = (request.query.usernames ?? '').split(',');
        const found = X_USERS.filter((user) => names.some((name) => name.toLowerCase() === user.username.toLowerCase()));
        const missing = names.filter((name) => !found.some((user) => user.username.toLowerCase() === name.toLowerCase()));
        return {
          headers: { 'x-rate-limit-limit': '300', 'x-rate-limit-remaining': '299', 'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + 900) },
          body: {
            ...(found.length > 0 ? { data: found } : {}),
            ...(missing.length > 0
              ? {
                  errors: missing.map((name) => ({
                    value: name,
                    detail: `Could not find user with usernames: [${name}].`,
                    title: 'Not Found Error',
                    resource_type: 'user',
                    parameter: 'usernames',
                    resource_id: name,
                    type: 'https://api.twitter.com/2/problems/resource-not-found',
                  })),
                }
              : {}),
          },
        };
      },
      '/2/users/:id/tweets': (request, params) => {
        const user = X_USERS.find((candidate) => candidate.id === params.id);
        if (!user) return { status: 404, body: { title: 'Not Found Error', type: 'https://api.twitter.com/2/problems/resource-not-found', detail: 'no user' } };
        const { since_id: sinceId, start_time: startTime, pagination_token: token } = request.query;
        const matching = posts
          .filter((post) => post.author_id === user.id)
          .filter((post) => (sinceId ? BigInt(post.id) > BigInt(sinceId) : startTime ? post.created_at >= startTime.replace('Z', '.000Z') : true))
          .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
        if (matching.length === 0) return { body: { meta: { result_count: 0 } } };
        const from = token ? Number(token.replace('page-', '')) : 0;
        const page = matching.slice(from, from + PAGE);
        const next = from + PAGE < matching.length ? `page-${from + PAGE}` : undefined;
        return {
          headers: { 'x-rate-limit-limit': '10000', 'x-rate-limit-remaining': '9999', 'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + 900) },
          body: {
            data: page,
            includes: { users: [user] },
            meta: { result_count: page.length, newest_id: page[0]!.id, oldest_id: page.at(-1)!.id, ...(next ? { next_token: next } : {}) },
          },
        };
      },
    },
    (headers) =>
      headers.authorization === `Bearer ${X_TOKEN}` ? undefined : { status: 401, body: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' } },
  );
  return Object.assign(server, {
    posts,
    addPost(post: Omit<FixturePost, 'edit_history_tweet_ids'>) {
      posts.push({ ...post, edit_history_tweet_ids: [post.id] });
    },
  });
}
