/**
 * X API v2 in the shapes X answers today (docs/providers.md, "X"): user lookups by name and by
 * id with partial `errors[]` (unknown, suspended: "Forbidden" titled resource-not-found), recent
 * search with `(from:a OR from:b) -is:retweet` queries (length-capped, newest first, `next_token`,
 * `since_id`/`until_id`/`start_time`), user timelines (a suspended account's is a 200 with only
 * `errors`), an empty page without `data`, fields omitted unless asked for.
 *
 * Two dialects: `2.167` (OpenAPI 2.167's names, enforced: `tweet.fields` is refused with X's 400
 * invalid-request body; answers carry `note_post`, `repost_count`, `edit_history_post_ids`,
 * `post_count`) and `docs` (the docs pages' names: `post.fields` refused; `note_tweet`,
 * `retweet_count`, `edit_history_tweet_ids`, `tweet_count`). It counts the resources it returned,
 * as X bills them: posts and users.
 */
import { ETH_CA, SOL_CA } from './elfa.js';
import { startFixtureServer, type FixtureAnswer, type FixtureServer, type RecordedRequest } from './fixture-server.js';

export const X_TOKEN = 'AAAAAAAAAAAAAAAAAAAAAfixture%2Bbearer%3Dtoken';

export type XDialect = '2.167' | 'docs';
export type XUserState = 'active' | 'suspended' | 'deleted' | 'protected';

export interface XFixtureUser {
  id: string;
  name: string;
  username: string;
  followers: number;
  state?: XUserState;
}

export interface FixturePost {
  id: string;
  author_id: string;
  /** The whole text; over 280 characters it is served as a note (`note_post`/`note_tweet`) with `text` cut. */
  text: string;
  created_at: string;
  metrics?: { like: number; repost: number; reply: number; quote: number; bookmark: number };
  cashtags?: string[];
  /** Ids of the earlier versions of an edited post. */
  edits?: string[];
}

export const X_USERS: XFixtureUser[] = [
  { id: '1001', name: 'Alice', username: 'CryptoAlice', followers: 52000 },
  { id: '1002', name: 'Bob', username: 'bob_trades', followers: 8000 },
  { id: '1003', name: 'Rug', username: 'rugpull_dev', followers: 1200, state: 'suspended' },
  { id: '1004', name: 'Whale', username: 'whale_watch', followers: 30000 },
];

/** The long post: 349 characters, `$TAIL` only after character 280 (a cut text loses it). */
export const LONG_POST_TEXT = (() => {
  const head = 'A long thread on $PEPE, and why I think the meme season is not over yet. ';
  const tail = ' I also hold $SOL and a bag of $TAIL.';
  const text = head + 'Lots of detail. '.repeat(40).slice(0, 349 - head.length - tail.length) + tail;
  if (text.length !== 349 || text.indexOf('$TAIL') <= 280) throw new Error('the long post is not 349 characters with $TAIL after 280');
  return text;
})();

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
const metrics = (like: number, repost: number, reply: number, quote: number, bookmark: number) => ({
  like,
  repost,
  reply,
  quote,
  bookmark,
});

export function fixturePosts(): FixturePost[] {
  return [
    {
      id: '1900000000000000105',
      author_id: '1001',
      created_at: hoursAgo(1),
      text: `$SOL looking strong here, adding more. Watching ${ETH_CA.toLowerCase()} too`,
      metrics: metrics(100, 10, 5, 2, 3),
      cashtags: ['SOL'],
    },
    {
      id: '1900000000000000104',
      author_id: '1001',
      created_at: hoursAgo(3),
      text: LONG_POST_TEXT,
      metrics: metrics(40, 4, 2, 0, 1),
      cashtags: ['PEPE'],
    },
    {
      id: '1900000000000000103',
      author_id: '1001',
      created_at: hoursAgo(30),
      text: 'Is $BTC topping? Not sure.',
      metrics: metrics(12, 1, 9, 0, 0),
      cashtags: ['BTC'],
    },
    {
      id: '1900000000000000102',
      author_id: '1002',
      created_at: hoursAgo(2),
      text: `Bought more $SOL and $BTC. ${SOL_CA} is pumping`,
      metrics: metrics(20, 3, 1, 1, 0),
      cashtags: ['SOL', 'BTC'],
    },
    { id: '1900000000000000101', author_id: '1002', created_at: hoursAgo(50), text: 'gm', metrics: metrics(0, 0, 0, 0, 0) },
    {
      id: '1900000000000000100',
      author_id: '1002',
      created_at: hoursAgo(100),
      text: 'old news about $ETH',
      metrics: metrics(5, 0, 0, 0, 0),
    },
    {
      id: '1900000000000000099',
      author_id: '1003',
      created_at: hoursAgo(4),
      text: '$SOL to the moon, trust me',
      metrics: metrics(3, 0, 0, 0, 0),
      cashtags: ['SOL'],
    },
  ];
}

export interface XFixtureOptions {
  dialect?: XDialect;
  users?: XFixtureUser[];
  posts?: FixturePost[];
  /** The longest search query taken (512: self-serve access). */
  maxQueryLength?: number;
  /** Posts per search or timeline page at most, whatever `max_results` asks (tests of paging). */
  pageSize?: number;
}

export interface XFixture extends FixtureServer {
  dialect: XDialect;
  users: XFixtureUser[];
  posts: FixturePost[];
  /** Resources returned, as X bills them. */
  billed: { posts: number; users: number };
  addPost(post: FixturePost): void;
  rename(id: string, username: string): void;
  setState(id: string, state: XUserState): void;
}

/** Post fields each dialect knows (the defaults id, text and the edit history always come). */
const POST_FIELDS: Record<XDialect, { parameter: string; fields: readonly string[] }> = {
  '2.167': {
    parameter: 'post.fields',
    fields: [
      'created_at',
      'author_id',
      'public_metrics',
      'entities',
      'note_post',
      'referenced_tweets',
      'in_reply_to_user_id',
      'lang',
      'conversation_id',
    ],
  },
  docs: {
    parameter: 'tweet.fields',
    fields: [
      'created_at',
      'author_id',
      'public_metrics',
      'entities',
      'note_tweet',
      'referenced_tweets',
      'in_reply_to_user_id',
      'lang',
      'conversation_id',
    ],
  },
};
const USER_FIELDS = ['created_at', 'description', 'protected', 'public_metrics', 'verified', 'profile_image_url'];

const invalidRequest = (parameter: string, value: string, message: string): FixtureAnswer => ({
  status: 400,
  body: {
    errors: [{ parameters: { [parameter]: [value] }, message }],
    title: 'Invalid Request',
    detail: 'One or more parameters to your request was invalid.',
    type: 'https://api.twitter.com/2/problems/invalid-request',
  },
});

const rateHeaders = (limit: number) => ({
  'x-rate-limit-limit': String(limit),
  'x-rate-limit-remaining': String(limit - 1),
  'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + 900),
});

const byNewest = (a: FixturePost, b: FixturePost) => (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0);

export async function startXFixture(options: XFixtureOptions = {}): Promise<XFixture> {
  const dialect = options.dialect ?? '2.167';
  const users = (options.users ?? X_USERS).map((user) => ({ ...user }));
  const posts = options.posts ?? fixturePosts();
  const postsByAuthor = new Map<string, FixturePost[]>();
  const index = (post: FixturePost) => postsByAuthor.set(post.author_id, [...(postsByAuthor.get(post.author_id) ?? []), post]);
  posts.forEach(index);
  const billed = { posts: 0, users: 0 };
  const known = POST_FIELDS[dialect];
  const oldNames = dialect === '2.167';

  /** The `post.fields`/`tweet.fields` asked for, or a 400 as X answers an unknown parameter or value. */
  function postFields(query: Record<string, string>): Set<string> | FixtureAnswer {
    const foreign = POST_FIELDS[dialect === '2.167' ? 'docs' : '2.167'].parameter;
    if (query[foreign] !== undefined) {
      return invalidRequest(
        foreign,
        query[foreign],
        `The query parameter [${foreign}] is not one of [query,start_time,end_time,since_id,until_id,max_results,next_token,pagination_token,sort_order,expansions,${known.parameter},media.fields,poll.fields,place.fields,user.fields]`,
      );
    }
    const asked = (query[known.parameter] ?? '').split(',').filter(Boolean);
    const unknown = asked.find((field) => !known.fields.includes(field));
    if (unknown)
      return invalidRequest(
        known.parameter,
        query[known.parameter]!,
        `The \`${known.parameter}\` query parameter value [${unknown}] is not one of [${known.fields.join(',')}]`,
      );
    return new Set(asked);
  }

  function renderPost(post: FixturePost, fields: Set<string>): Record<string, unknown> {
    const long = post.text.length > 280;
    const rendered: Record<string, unknown> = {
      id: post.id,
      text: long ? `${post.text.slice(0, 279)}…` : post.text,
      [oldNames ? 'edit_history_post_ids' : 'edit_history_tweet_ids']: [...(post.edits ?? []), post.id],
    };
    if (fields.has('created_at')) rendered.created_at = post.created_at;
    if (fields.has('author_id')) rendered.author_id = post.author_id;
    if (fields.has('public_metrics') && post.metrics) {
      const m = post.metrics;
      rendered.public_metrics = {
        [oldNames ? 'repost_count' : 'retweet_count']: m.repost,
        reply_count: m.reply,
        like_count: m.like,
        quote_count: m.quote,
        bookmark_count: m.bookmark,
        impression_count: m.like * 50,
      };
    }
    const cashtags = (text: string) =>
      (post.cashtags ?? []).flatMap((tag) => {
        const start = text.indexOf(`$${tag}`);
        return start < 0 ? [] : [{ start, end: start + tag.length + 1, tag }];
      });
    // Entity arrays are absent when empty, as X omits fields without a value.
    const entitiesOf = (text: string) => (cashtags(text).length > 0 ? { cashtags: cashtags(text) } : undefined);
    if (fields.has('entities') && entitiesOf(rendered.text as string)) rendered.entities = entitiesOf(rendered.text as string);
    const note = oldNames ? 'note_post' : 'note_tweet';
    if (long && fields.has(note))
      rendered[note] = { text: post.text, ...(entitiesOf(post.text) ? { entities: entitiesOf(post.text) } : {}) };
    return rendered;
  }

  function renderUser(user: XFixtureUser, fields: readonly string[]): Record<string, unknown> {
    const rendered: Record<string, unknown> = { id: user.id, name: user.name, username: user.username };
    if (fields.includes('protected')) rendered.protected = user.state === 'protected';
    if (fields.includes('public_metrics'))
      rendered.public_metrics = {
        followers_count: user.followers,
        following_count: 100,
        [oldNames ? 'post_count' : 'tweet_count']: 1000,
        listed_count: 5,
      };
    return rendered;
  }

  function lookupProblem(user: XFixtureUser | undefined, parameter: 'usernames' | 'ids', value: string): Record<string, unknown> {
    if (user?.state === 'suspended') {
      return {
        parameter,
        resource_id: value,
        value,
        detail: `User has been suspended: [${value}].`,
        title: 'Forbidden',
        resource_type: 'user',
        type: 'https://api.twitter.com/2/problems/resource-not-found',
      };
    }
    return {
      value,
      detail: `Could not find user with ${parameter}: [${value}].`,
      title: 'Not Found Error',
      resource_type: 'user',
      parameter,
      resource_id: value,
      type: 'https://api.twitter.com/2/problems/resource-not-found',
    };
  }

  function lookup(request: RecordedRequest, parameter: 'usernames' | 'ids'): FixtureAnswer {
    const values = (request.query[parameter] ?? '').split(',');
    const fields = (request.query['user.fields'] ?? '').split(',').filter(Boolean);
    const badField = fields.find((field) => !USER_FIELDS.includes(field));
    if (badField)
      return invalidRequest(
        'user.fields',
        request.query['user.fields']!,
        `The \`user.fields\` query parameter value [${badField}] is not one of [${USER_FIELDS.join(',')}]`,
      );
    if (parameter === 'usernames') {
      // One bad name fails the whole batch.
      const bad = values.find((name) => !/^[A-Za-z0-9_]{1,15}$/.test(name));
      if (bad !== undefined)
        return invalidRequest('usernames', bad, 'The `usernames` query parameter value [...] does not match ^[A-Za-z0-9_]{1,15}$');
    }
    const data: Record<string, unknown>[] = [];
    const errors: Record<string, unknown>[] = [];
    for (const value of values) {
      const user = users.find((candidate) =>
        parameter === 'ids' ? candidate.id === value : candidate.username.toLowerCase() === value.toLowerCase(),
      );
      if (user && user.state !== 'suspended' && user.state !== 'deleted') data.push(renderUser(user, fields));
      else errors.push(lookupProblem(user, parameter, value));
    }
    billed.users += data.length;
    return { headers: rateHeaders(300), body: { ...(data.length > 0 ? { data } : {}), ...(errors.length > 0 ? { errors } : {}) } };
  }

  /** One page of `matching` (newest first) from `token`, in the envelope of search and timelines. */
  function page(matching: FixturePost[], query: Record<string, string>, fields: Set<string>, limit: number): FixtureAnswer {
    const max = Number(query.max_results ?? 10);
    const size = Math.min(max, options.pageSize ?? max);
    const token = query.next_token ?? query.pagination_token;
    const from = token ? Number(token.replace(/^p/, '')) : 0;
    if (matching.length === 0) return { headers: rateHeaders(limit), body: { meta: { result_count: 0 } } };
    const slice = matching.slice(from, from + size);
    const next = from + size < matching.length ? `p${from + size}` : undefined;
    billed.posts += slice.length;
    return {
      headers: rateHeaders(limit),
      body: {
        data: slice.map((post) => renderPost(post, fields)),
        meta: { newest_id: slice[0]!.id, oldest_id: slice.at(-1)!.id, result_count: slice.length, ...(next ? { next_token: next } : {}) },
      },
    };
  }

  function inRange(post: FixturePost, query: Record<string, string>): boolean {
    if (query.since_id && BigInt(post.id) <= BigInt(query.since_id)) return false;
    if (query.until_id && BigInt(post.id) >= BigInt(query.until_id)) return false;
    if (query.start_time && Date.parse(post.created_at) < Date.parse(query.start_time)) return false;
    if (query.end_time && Date.parse(post.created_at) >= Date.parse(query.end_time)) return false;
    return true;
  }

  const server = await startFixtureServer(
    {
      '/2/users/by': (request) => lookup(request, 'usernames'),
      '/2/users': (request) => lookup(request, 'ids'),
      '/2/tweets/search/recent': (request) => {
        const { query } = request;
        const fields = postFields(query);
        if (!(fields instanceof Set)) return fields;
        const text = query.query ?? '';
        const maxLength = options.maxQueryLength ?? 512;
        if (text.length === 0 || text.length > maxLength)
          return invalidRequest(
            'query',
            text,
            `The \`query\` query parameter value [${text.slice(0, 40)}...] is not valid: its length must be from 1 to ${maxLength}`,
          );
        if (query.since_id && query.start_time)
          return invalidRequest('since_id', query.since_id, 'Only one of [since_id,start_time] may be given');
        const max = Number(query.max_results ?? 10);
        if (!(max >= 10 && max <= 100))
          return invalidRequest(
            'max_results',
            String(query.max_results),
            'The `max_results` query parameter value is not between 10 and 100',
          );
        const names = [...text.matchAll(/from:(\w+)/g)].map((match) => match[1]!.toLowerCase());
        const authors = users.filter((user) => names.includes(user.username.toLowerCase()) && (user.state ?? 'active') === 'active');
        const matching = authors
          .flatMap((author) => postsByAuthor.get(author.id) ?? [])
          .filter((post) => inRange(post, query))
          .sort(byNewest);
        return page(matching, query, fields, 450);
      },
      '/2/users/:id/tweets': (request, params) => {
        const user = users.find((candidate) => candidate.id === params.id);
        if (user?.state === 'suspended') {
          return {
            body: {
              errors: [
                {
                  detail: `User has been suspended: [${user.id}].`,
                  parameter: 'id',
                  resource_id: user.id,
                  resource_type: 'user',
                  title: 'Forbidden',
                  type: 'https://api.twitter.com/2/problems/resource-not-found',
                  value: user.id,
                },
              ],
            },
          };
        }
        if (!user || user.state === 'deleted') return { body: { errors: [lookupProblem(undefined, 'ids', params.id ?? '')] } };
        const fields = postFields(request.query);
        if (!(fields instanceof Set)) return fields;
        const matching = (postsByAuthor.get(user.id) ?? []).filter((post) => inRange(post, request.query)).sort(byNewest);
        return page(matching, request.query, fields, 10_000);
      },
    },
    (headers) =>
      headers.authorization === `Bearer ${X_TOKEN}`
        ? undefined
        : { status: 401, body: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' } },
  );
  return Object.assign(server, {
    dialect,
    users,
    posts,
    billed,
    addPost(post: FixturePost) {
      posts.push(post);
      index(post);
    },
    rename(id: string, username: string) {
      users.find((user) => user.id === id)!.username = username;
    },
    setState(id: string, state: XUserState) {
      users.find((user) => user.id === id)!.state = state;
    },
  });
}
