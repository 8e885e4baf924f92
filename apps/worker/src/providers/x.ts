/**
 * X API v2 (docs/providers.md, "X"): the tracked accounts' posts. Usernames are resolved to ids
 * once (`/2/users/by`, billed per user) and remembered in Redis; each refresh reads only what
 * is new on each timeline (`since_id`, billed per post), and the posts read are held in Redis
 * for the news window, so a post is paid for once.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Logger } from '../../../../shared/logger.js';
import type { NewsItem } from '../../../../shared/market-types.js';
import { providerKeys } from '../../../../shared/provider-keys.js';
import { UpstreamError } from '../upstream-error.js';
import type { ProviderHttp } from './provider-http.js';
import { recordSpend } from './spend.js';
import { lenientCount, parseItems } from './tolerant.js';

export interface XUser {
  id: string;
  /** As X spells it. */
  username: string;
}

export interface XAdapter {
  /** The accounts X knows, keyed by lower-case username; unknown or suspended ones are absent. */
  users(usernames: readonly string[]): Promise<Map<string, XUser>>;
  /** Reads what is new on each account's timeline, holds it, and returns the held posts since `since`, newest first. */
  posts(accounts: readonly string[], since: Date, max: number): Promise<NewsItem[]>;
  /** The held posts (no call). */
  heldPosts(): Promise<NewsItem[]>;
}

/** How long a username X did not find is left before it is looked up again. */
const MISSING_RECHECK_MS = 86_400_000;

/** Pages read per account per refresh at most (100 posts each): bounds what one refresh can cost. */
const MAX_PAGES = 5;

const user = z.object({
  id: z.string().regex(/^\d{1,19}$/),
  username: z.string().min(1),
  public_metrics: z.object({ followers_count: lenientCount() }).optional(),
});

const counts = z.object({
  like_count: lenientCount(),
  reply_count: lenientCount(),
  bookmark_count: lenientCount(),
  quote_count: lenientCount(),
  // The docs say retweet_count, OpenAPI 2.167 repost_count: either.
  retweet_count: lenientCount().optional(),
  repost_count: lenientCount().optional(),
  impression_count: lenientCount().optional(),
});

const post = z.object({
  id: z.string().regex(/^\d{1,19}$/),
  text: z.string(),
  author_id: z.string().optional(),
  created_at: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'not a timestamp'),
  public_metrics: counts.partial().optional(),
  entities: z.object({ cashtags: z.array(z.object({ tag: z.string() })).optional() }).optional(),
  note_tweet: z.object({ text: z.string() }).optional(),
});
type Post = z.infer<typeof post>;

const page = z.object({
  data: z.array(z.unknown()).optional(),
  includes: z.object({ users: z.array(z.unknown()).optional() }).optional(),
  meta: z.object({ newest_id: z.string().optional(), next_token: z.string().optional() }).optional(),
  errors: z.array(z.unknown()).optional(),
});

/**
 * engagementScore (docs/providers.md): likes + replies + bookmarks + 2 × (reposts + quotes).
 * Reposts and quotes carry the post to new audiences, so they count double; impressions are
 * views, not engagement, and are left out.
 */
export function engagementScore(metrics: Post['public_metrics']): number {
  if (!metrics) return 0;
  const reposts = metrics.retweet_count ?? metrics.repost_count ?? 0;
  return (metrics.like_count ?? 0) + (metrics.reply_count ?? 0) + (metrics.bookmark_count ?? 0) + 2 * (reposts + (metrics.quote_count ?? 0));
}

const CASHTAG = /\$([A-Za-z][A-Za-z0-9]{0,14})(?![A-Za-z0-9])/g;

/** X's cashtag entities, plus cashtags in the text X did not mark (long posts), upper case, once each. */
export function tokensOf(entry: Post): string[] {
  const text = entry.note_tweet?.text ?? entry.text;
  const tags = [...(entry.entities?.cashtags ?? []).map((cashtag) => cashtag.tag), ...[...text.matchAll(CASHTAG)].map((match) => match[1] ?? '')];
  return [...new Set(tags.map((tag) => tag.replace(/^\$/, '').toUpperCase()).filter((tag) => /^[A-Z0-9]{1,20}$/.test(tag)))];
}

export function createXAdapter(http: ProviderHttp, redis: Redis, logger: Logger, now: () => Date = () => new Date()): XAdapter {
  async function users(usernames: readonly string[]): Promise<Map<string, XUser>> {
    const held = await redis.hgetall(providerKeys.xUsers());
    const result = new Map<string, XUser>();
    const missing: string[] = [];
    for (const name of usernames) {
      const known = held[name.toLowerCase()];
      const entry = known ? (JSON.parse(known) as XUser | { missingSince: string }) : undefined;
      if (entry && 'id' in entry) result.set(name.toLowerCase(), entry);
      // A name X did not find is asked again a day later, not on every refresh (a lookup is billed).
      else if (!entry || Date.parse(entry.missingSince) < now().getTime() - MISSING_RECHECK_MS) missing.push(name);
    }
    for (let at = 0; at < missing.length; at += 100) {
      const batch = missing.slice(at, at + 100);
      const { body } = await http.get('/2/users/by', { searchParams: { usernames: batch.join(','), 'user.fields': 'public_metrics' } });
      const parsed = page.safeParse(body);
      if (!parsed.success) throw new UpstreamError('x /2/users/by: invalid payload', { retryable: false });
      const found = parseItems(parsed.data.data ?? [], user).valid;
      if (parsed.data.errors?.length) logger.warn({ provider: 'x', problems: parsed.data.errors.length }, 'x: some tracked usernames were not found or are suspended; skipped');
      const remember: Record<string, string> = {};
      const missingSince = JSON.stringify({ missingSince: now().toISOString() });
      for (const name of batch) remember[name.toLowerCase()] = missingSince;
      for (const entry of found) {
        const resolved: XUser = { id: entry.id, username: entry.username };
        result.set(entry.username.toLowerCase(), resolved);
        remember[entry.username.toLowerCase()] = JSON.stringify(resolved);
      }
      await redis.hset(providerKeys.xUsers(), remember);
    }
    return result;
  }

  async function readTimeline(account: XUser, since: Date, sinceId: string | undefined): Promise<{ items: NewsItem[]; newestId: string | undefined }> {
    const items: NewsItem[] = [];
    let newestId: string | undefined;
    let token: string | undefined;
    const path = `/2/users/${account.id}/tweets`;
    for (let pageNumber = 0; pageNumber < MAX_PAGES; pageNumber += 1) {
      const searchParams: Record<string, string | number> = {
        max_results: 100,
        exclude: 'retweets',
        'tweet.fields': 'created_at,author_id,public_metrics,entities,note_tweet',
        expansions: 'author_id',
        'user.fields': 'public_metrics',
      };
      if (sinceId) searchParams.since_id = sinceId;
      else searchParams.start_time = since.toISOString().replace(/\.\d{3}Z$/, 'Z');
      if (token) searchParams.pagination_token = token;
      const { body } = await http.get(path, { searchParams });
      const parsed = page.safeParse(body);
      if (!parsed.success) throw new UpstreamError(`x ${path}: invalid payload`, { retryable: false });
      const posts = parseItems(parsed.data.data ?? [], post).valid;
      recordSpend('x', { posts: parsed.data.data?.length ?? 0 });
      const followers = new Map(parseItems(parsed.data.includes?.users ?? [], user).valid.map((entry) => [entry.id, entry]));
      for (const entry of posts) {
        const author = followers.get(entry.author_id ?? account.id);
        items.push({
          id: entry.id,
          text: entry.note_tweet?.text ?? entry.text,
          author: author?.username ?? account.username,
          authorFollowers: author?.public_metrics?.followers_count ?? 0,
          publishedAt: new Date(entry.created_at).toISOString(),
          tokens: tokensOf(entry),
          engagementScore: engagementScore(entry.public_metrics),
        });
      }
      newestId ??= parsed.data.meta?.newest_id ?? posts[0]?.id;
      token = parsed.data.meta?.next_token;
      if (!token) break;
    }
    return { items, newestId };
  }

  async function heldPosts(): Promise<NewsItem[]> {
    return Object.values(await redis.hgetall(providerKeys.xPosts())).map((raw) => JSON.parse(raw) as NewsItem);
  }

  return {
    users,
    heldPosts,
    async posts(accounts, since, max) {
      const resolved = await users(accounts);
      const sinceIds = await redis.hgetall(providerKeys.xSinceIds());
      for (const account of resolved.values()) {
        const { items, newestId } = await readTimeline(account, since, sinceIds[account.id]);
        if (items.length > 0) await redis.hset(providerKeys.xPosts(), Object.fromEntries(items.map((item) => [item.id, JSON.stringify(item)])));
        if (newestId) await redis.hset(providerKeys.xSinceIds(), account.id, newestId);
      }
      const held = await heldPosts();
      const stale = held.filter((item) => Date.parse(item.publishedAt) < since.getTime()).map((item) => item.id);
      if (stale.length > 0) await redis.hdel(providerKeys.xPosts(), ...stale);
      return held
        .filter((item) => Date.parse(item.publishedAt) >= since.getTime())
        .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || b.id.localeCompare(a.id))
        .slice(0, max);
    },
  };
}
