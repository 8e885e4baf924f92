/**
 * X API v2 (docs/providers.md, "X API v2"): the tracked accounts (x-accounts.ts) and their posts,
 * read by recent search in batches (x-batches.ts) within a request budget per refresh and held in
 * Redis for the news window, so a post is paid for once. X's two spellings: x-wire.ts, x-dialect.ts.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../../../../shared/logger.js';
import type { NewsItem } from '../../../../shared/market-types.js';
import { providerKeys } from '../../../../shared/provider-keys.js';
import { UpstreamError } from './upstream-error.js';
import type { ProviderHttp } from './upstream-http.js';
import { recordSpend } from './spend.js';
import { createTrackedAccounts, readable, type RequestBudget, type TrackedAccount } from './x-accounts.js';
import { batchesOf, batchQuery, compareIds, lowerBound, maxId, mergeHole, type ReadState } from './x-batches.js';
import { createPostFieldsClient } from './x-dialect.js';
import { engagementScore, pageSchema, postsOf, problemsOf, tokensOf, type XPost } from './x-wire.js';

/** A tracked post as held: the news item, with what ties it to the tracked set by id (not by spelling). */
export interface HeldPost extends NewsItem {
  /** The author's X id (absent only on posts held before ids were kept). */
  authorId?: string;
  /** Lower-case usernames it mentions. */
  mentions?: string[];
  inReplyToUserId?: string;
  /** The ids of the posts it quotes and replies to. */
  quotes?: string[];
  repliesTo?: string[];
}

export interface XUser {
  id: string;
  /** As X spells it now. */
  username: string;
}

export interface XAdapter {
  /** The tracked accounts as last looked up, no call. */
  accounts(): Promise<TrackedAccount[]>;
  /**
   * Those of `usernames` that are tracked and X knows (not suspended or deleted), keyed by the
   * configured name in lower case, each looked up first when due (never, or not within a day).
   */
  users(usernames: readonly string[]): Promise<Map<string, XUser>>;
  /** A tracked account by its configured or its current spelling (looked up once if it never was); undefined when not tracked. */
  account(username: string): Promise<TrackedAccount | undefined>;
  /** Reads what is new, holds it, and returns the held posts since `since`, newest first, at most `max`. */
  posts(since: Date, max: number): Promise<NewsItem[]>;
  /** The held posts of the tracked accounts (no call), each under its author's current spelling. */
  heldPosts(): Promise<HeldPost[]>;
}

export interface XAdapterOptions {
  http: ProviderHttp;
  redis: Redis;
  logger: Logger;
  now?: () => Date;
  /** TRACKED_ACCOUNTS. */
  trackedAccounts: readonly string[];
  /** X_QUERY_MAX_LENGTH: the longest search query X takes on the plan (512 self-serve). */
  queryMaxLength: number;
  /** X_REQUESTS_PER_REFRESH: X requests one news refresh may make (lookups included). */
  requestsPerRefresh: number;
}

const SEARCH = '/2/tweets/search/recent';

interface Page {
  posts: XPost[];
  /** The page's newest and oldest posts (ids and times), when it has any. */
  top?: { id: string; at: string };
  bottom?: { id: string; at: string };
  next?: string;
}

export function createXAdapter(options: XAdapterOptions): XAdapter {
  const { http, redis, logger, trackedAccounts: configured } = options;
  const now = options.now ?? (() => new Date());
  const tracked = createTrackedAccounts(http, redis, logger, now);
  const fields = createPostFieldsClient(http, redis, logger);

  /** One page of a search, or undefined when the budget ran out before X took the request (x-dialect.ts). */
  async function searchPage(
    query: string,
    range: Record<string, string>,
    token: string | undefined,
    budget: RequestBudget,
  ): Promise<Page | undefined> {
    const response = await fields.get(
      SEARCH,
      { query, max_results: 100, sort_order: 'recency', ...range, ...(token ? { next_token: token } : {}) },
      budget,
    );
    if (!response) return undefined;
    const parsed = pageSchema.safeParse(response.body);
    if (!parsed.success) throw new UpstreamError(`x ${SEARCH}: invalid payload`, { retryable: false });
    const { posts, included } = postsOf(parsed.data);
    recordSpend('x', { posts: (parsed.data.data?.length ?? 0) + included.length });
    const problems = problemsOf(parsed.data.errors);
    if (problems.length > 0) logger.debug({ provider: 'x', problems: problems.length }, 'x: a search page came with partial errors');
    const ordered = [...posts].sort((a, b) => compareIds(b.id, a.id));
    const edge = (post: XPost | undefined) => post && { id: post.id, at: post.createdAt };
    return { posts, top: edge(ordered[0]), bottom: edge(ordered.at(-1)), next: parsed.data.meta?.next_token };
  }

  async function readStates(ids: readonly string[]): Promise<Map<string, ReadState>> {
    if (ids.length === 0) return new Map();
    const stored = await redis.hmget(providerKeys.xReads(), ...ids);
    return new Map(ids.map((id, at) => [id, stored[at] ? (JSON.parse(stored[at]) as ReadState) : {}]));
  }

  function hold(post: XPost, account: TrackedAccount): HeldPost {
    return {
      id: post.id,
      text: post.text,
      author: account.username ?? account.configured,
      authorFollowers: account.followers ?? 0,
      publishedAt: post.createdAt,
      tokens: tokensOf(post),
      engagementScore: engagementScore(post.metrics),
      authorId: post.authorId,
      ...(post.mentions.length > 0 ? { mentions: post.mentions } : {}),
      ...(post.inReplyToUserId ? { inReplyToUserId: post.inReplyToUserId } : {}),
      ...referencedOf(post),
    };
  }

  /**
   * Reads every batch's new posts, then the unread ranges, within the budget; returns the posts
   * read and the read positions they move to, which the caller saves only once the posts are
   * stored: saved first, a failed store would lose posts that were paid for.
   */
  async function read(
    accounts: readonly TrackedAccount[],
    since: Date,
    budget: RequestBudget,
  ): Promise<{ posts: XPost[]; advance: () => Promise<void> }> {
    const members = accounts.filter(readable);
    const states = await readStates(members.map((member) => member.id));
    const state = (id: string) => states.get(id) ?? {};
    const readAt = (batch: readonly { id: string }[]) => Math.min(...batch.map((member) => state(member.id).readAt ?? 0));
    // Accounts with nothing read within the window are packed apart: their search starts at the
    // window's start, and the others' would otherwise read (and pay for) their posts again.
    const hasSince = (member: { id: string }) => {
      const known = state(member.id);
      return known.since !== undefined && known.sinceAt !== undefined && Date.parse(known.sinceAt) >= since.getTime();
    };
    const [fresh, known] = [members.filter((member) => !hasSince(member)), members.filter(hasSince)];
    const batches = [...batchesOf(fresh, options.queryMaxLength), ...batchesOf(known, options.queryMaxLength)].sort(
      (a, b) => readAt(a) - readAt(b),
    );
    const read: XPost[] = [];
    /** The pages after `page` while X has more and the budget lasts; the last one read, `bottom` the oldest post read. */
    const rest = async (query: string, range: Record<string, string>, page: Page): Promise<Page> => {
      while (page.next && budget.left > 0) {
        const next = await searchPage(query, range, page.next, budget);
        if (!next) break;
        read.push(...next.posts);
        page = { ...next, bottom: next.bottom ?? page.bottom };
      }
      return page;
    };
    const changed = new Set<string>();
    const update = (id: string, next: ReadState) => {
      states.set(id, next);
      changed.add(id);
    };

    // The new posts of each batch: first pages first, so every batch gets its newest posts before any gets a second page.
    const heads: { batch: typeof members; query: string; range: Record<string, string>; page: Page; top?: Page['top'] }[] = [];
    for (const batch of batches) {
      if (budget.left <= 0) break;
      const query = batchQuery(batch.map((member) => member.username));
      const range = lowerBound(
        batch.map((member) => ({ id: state(member.id).since, at: state(member.id).sinceAt })),
        since,
      );
      const page = await searchPage(query, range, undefined, budget);
      if (!page) break;
      read.push(...page.posts);
      heads.push({ batch, query, range, page, top: page.top });
    }
    for (const head of heads) {
      head.page = await rest(head.query, head.range, head.page);
      const sinceAt = head.batch.map((member) => state(member.id).sinceAt ?? '').sort()[0];
      for (const member of head.batch) {
        const previous = state(member.id);
        const next: ReadState = { ...previous, readAt: now().getTime() };
        // Cut short by the budget: what lies between the old since_id and the last post read is read later.
        if (head.page.next && head.page.bottom) {
          const after = head.range.since_id ? { after: head.range.since_id, afterAt: sinceAt } : {};
          next.hole = mergeHole(previous.hole, { ...after, before: head.page.bottom.id, beforeAt: head.page.bottom.at });
        }
        if (head.top && (!previous.since || compareIds(head.top.id, previous.since) > 0))
          Object.assign(next, { since: head.top.id, sinceAt: head.top.at });
        update(member.id, next);
      }
    }

    // The ranges earlier refreshes left unread (oldest first would be fairer; least recently read batches go first as above).
    for (const batch of batches) {
      const holed = batch.filter((member) => {
        const hole = state(member.id).hole;
        if (hole && Date.parse(hole.beforeAt) < since.getTime()) update(member.id, { ...state(member.id), hole: undefined });
        return state(member.id).hole !== undefined;
      });
      if (holed.length === 0 || budget.left <= 0) continue;
      const holes = holed.map((member) => state(member.id).hole!);
      const query = batchQuery(batch.map((member) => member.username));
      const range = {
        ...lowerBound(
          holes.map((hole) => ({ id: hole.after, at: hole.afterAt })),
          since,
        ),
        until_id: maxId(holes.map((hole) => hole.before))!,
      };
      const first = await searchPage(query, range, undefined, budget);
      if (!first) break; // the budget is spent before X took the request: the holes stay as they are
      read.push(...first.posts);
      const { next, bottom } = await rest(query, range, first);
      for (const member of holed) {
        const hole = state(member.id).hole!;
        update(member.id, { ...state(member.id), hole: next && bottom ? { ...hole, before: bottom.id, beforeAt: bottom.at } : undefined });
      }
    }

    const unread = batches.length - heads.length;
    const holesLeft = members.filter((member) => state(member.id).hole !== undefined).length;
    if (unread > 0 || holesLeft > 0) {
      logger.info(
        { provider: 'x', budget: options.requestsPerRefresh, batches: batches.length, unread, holesLeft },
        `x: the request budget (${options.requestsPerRefresh} a refresh) ran out; ${unread} batch(es) and ${holesLeft} account range(s) wait for the next refresh`,
      );
    }
    const positions = Object.fromEntries([...changed].map((id) => [id, JSON.stringify(states.get(id))]));
    return {
      posts: read,
      advance: async () => {
        if (changed.size > 0) await redis.hset(providerKeys.xReads(), positions);
      },
    };
  }

  async function heldPosts(): Promise<HeldPost[]> {
    const accounts = await tracked.held(configured);
    const byId = new Map(accounts.filter((account) => account.id !== undefined).map((account) => [account.id!, account]));
    const bySpelling = new Map(accounts.map((account) => [(account.username ?? account.configured).toLowerCase(), account]));
    const result: HeldPost[] = [];
    for (const raw of Object.values(await redis.hgetall(providerKeys.xPosts()))) {
      const post = JSON.parse(raw) as HeldPost;
      const account = post.authorId ? byId.get(post.authorId) : bySpelling.get(post.author.toLowerCase());
      // Matched by id: a renamed account's posts still count, a post from an account no longer tracked does not.
      if (!account) continue;
      result.push({
        ...post,
        authorId: account.id,
        author: account.username ?? account.configured,
        authorFollowers: account.followers ?? post.authorFollowers,
      });
    }
    return result;
  }

  return {
    accounts: () => tracked.held(configured),
    heldPosts,

    async users(usernames) {
      const wanted = new Set(usernames.map((name) => name.toLowerCase()));
      const only = new Set(configured.filter((name) => wanted.has(name.toLowerCase())));
      const accounts = await tracked.resolve(configured, { only });
      const known = accounts.filter(
        (account) =>
          only.has(account.configured) &&
          account.id !== undefined &&
          account.username !== undefined &&
          account.state !== 'suspended' &&
          account.state !== 'deleted',
      );
      return new Map(known.map((account) => [account.configured.toLowerCase(), { id: account.id!, username: account.username! }]));
    },

    async account(username) {
      const name = username.toLowerCase();
      const known = (await tracked.held(configured)).find(
        (account) => account.configured.toLowerCase() === name || account.username?.toLowerCase() === name,
      );
      if (!known || known.state !== 'unresolved') return known;
      const resolved = await tracked.resolve(configured, { only: new Set([known.configured]) });
      return resolved.find((account) => account.configured === known.configured);
    },

    async posts(since, max) {
      const budget: RequestBudget = { left: options.requestsPerRefresh };
      const accounts = await tracked.resolve(configured, { budget });
      const byId = new Map(accounts.filter((account) => account.id !== undefined).map((account) => [account.id!, account]));
      const { posts: readPosts, advance } = await read(accounts, since, budget);
      const fresh = readPosts.filter((post) => post.authorId !== undefined && byId.has(post.authorId));
      // Store first, then advance: a store that fails leaves the read positions where they were,
      // so the next refresh reads (and pays for) these posts again rather than never holding them.
      if (fresh.length > 0) {
        const held = Object.fromEntries(fresh.map((post) => [post.id, JSON.stringify(hold(post, byId.get(post.authorId!)!))]));
        // An edited post replaces its earlier versions (edit_history_post_ids ?? edit_history_tweet_ids).
        const replaced = fresh.flatMap((post) => post.replaces).filter((id) => !(id in held));
        await redis.hset(providerKeys.xPosts(), held);
        if (replaced.length > 0) await redis.hdel(providerKeys.xPosts(), ...replaced);
      }
      await advance();
      const all = await heldPosts();
      const stale = all.filter((item) => Date.parse(item.publishedAt) < since.getTime()).map((item) => item.id);
      if (stale.length > 0) await redis.hdel(providerKeys.xPosts(), ...stale);
      return all
        .filter((item) => Date.parse(item.publishedAt) >= since.getTime())
        .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || compareIds(b.id, a.id))
        .slice(0, max)
        .map(newsItem);
    },
  };
}

/** A held post as the news shows it: the fields of NewsItem only. */
function newsItem(post: HeldPost): NewsItem {
  return {
    id: post.id,
    text: post.text,
    author: post.author,
    authorFollowers: post.authorFollowers,
    publishedAt: post.publishedAt,
    tokens: post.tokens,
    engagementScore: post.engagementScore,
  };
}

function referencedOf(post: XPost): Pick<HeldPost, 'quotes' | 'repliesTo'> {
  const of = (type: string) => post.referenced.filter((reference) => reference.type === type).map((reference) => reference.id);
  const quotes = of('quoted');
  const repliesTo = of('replied_to');
  return { ...(quotes.length > 0 ? { quotes } : {}), ...(repliesTo.length > 0 ? { repliesTo } : {}) };
}
