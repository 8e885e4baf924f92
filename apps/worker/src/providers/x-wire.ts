/**
 * X API v2's payloads in both spellings (docs/providers.md, "X in both spellings"): every reader
 * takes the new name first, then the old one; the rest of the adapter sees one normalised shape.
 */
import { z } from 'zod';
import { lenientCount, parseItems } from './tolerant.js';

const id = z.string().regex(/^\d{1,19}$/);

export const userSchema = z.object({
  id,
  username: z.string().min(1),
  protected: z.boolean().optional(),
  public_metrics: z.object({ followers_count: lenientCount() }).partial().optional(),
});
export type WireUser = z.infer<typeof userSchema>;

const metricsSchema = z
  .object({
    like_count: lenientCount(),
    reply_count: lenientCount(),
    bookmark_count: lenientCount(),
    quote_count: lenientCount(),
    repost_count: lenientCount(),
    retweet_count: lenientCount(),
  })
  .partial();

const entitiesSchema = z
  .object({
    cashtags: z.array(z.object({ tag: z.string() })).optional(),
    mentions: z.array(z.object({ username: z.string(), id: id.optional() })).optional(),
  })
  .optional();

const postSchema = z.object({
  id,
  text: z.string(),
  author_id: id.optional(),
  created_at: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'not a timestamp'),
  in_reply_to_user_id: id.optional(),
  public_metrics: metricsSchema.optional(),
  entities: entitiesSchema,
  referenced_tweets: z.array(z.object({ type: z.string(), id })).optional(),
  note_post: z.object({ text: z.string(), entities: entitiesSchema }).optional(),
  note_tweet: z.object({ text: z.string(), entities: entitiesSchema }).optional(),
  edit_history_post_ids: z.array(id).optional(),
  edit_history_tweet_ids: z.array(id).optional(),
});
type WirePost = z.infer<typeof postSchema>;

export const pageSchema = z.object({
  data: z.array(z.unknown()).optional(),
  includes: z
    .object({ users: z.array(z.unknown()).optional(), posts: z.array(z.unknown()).optional(), tweets: z.array(z.unknown()).optional() })
    .optional(),
  meta: z
    .object({
      newest_id: id.optional(),
      oldest_id: id.optional(),
      next_token: z.string().optional(),
      result_count: lenientCount().optional(),
    })
    .optional(),
  errors: z.array(z.unknown()).optional(),
});
export type WirePage = z.infer<typeof pageSchema>;

/** A post as the rest of the adapter sees it, whatever spelling X answered in. */
export interface XPost {
  id: string;
  authorId: string | undefined;
  /** The whole text: a long post's note, else `text`. */
  text: string;
  createdAt: string;
  cashtags: string[];
  /** Lower-case usernames the post mentions. */
  mentions: string[];
  inReplyToUserId: string | undefined;
  /** Ids of the posts it quotes, replies to or reposts, by type. */
  referenced: { type: string; id: string }[];
  /** Earlier versions of an edited post (its own id excluded). */
  replaces: string[];
  metrics: { likes: number; replies: number; bookmarks: number; quotes: number; reposts: number } | undefined;
}

function normalise(post: WirePost): XPost {
  const note = post.note_post ?? post.note_tweet;
  const metrics = post.public_metrics;
  const edits = post.edit_history_post_ids ?? post.edit_history_tweet_ids ?? [];
  const entities = [post.entities, note?.entities];
  return {
    id: post.id,
    authorId: post.author_id,
    text: note?.text ?? post.text,
    createdAt: new Date(post.created_at).toISOString(),
    cashtags: entities.flatMap((entity) => entity?.cashtags?.map((cashtag) => cashtag.tag) ?? []),
    mentions: [...new Set(entities.flatMap((entity) => entity?.mentions?.map((mention) => mention.username.toLowerCase()) ?? []))],
    inReplyToUserId: post.in_reply_to_user_id,
    referenced: post.referenced_tweets ?? [],
    replaces: edits.filter((edit) => edit !== post.id),
    metrics: metrics && {
      likes: metrics.like_count ?? 0,
      replies: metrics.reply_count ?? 0,
      bookmarks: metrics.bookmark_count ?? 0,
      quotes: metrics.quote_count ?? 0,
      reposts: metrics.repost_count ?? metrics.retweet_count ?? 0,
    },
  };
}

/** The page's posts (`data`) and the posts it includes (`includes.posts ?? includes.tweets`), valid ones only, normalised. */
export function postsOf(page: WirePage): { posts: XPost[]; included: XPost[] } {
  return {
    posts: parseItems(page.data ?? [], postSchema).valid.map(normalise),
    included: parseItems(page.includes?.posts ?? page.includes?.tweets ?? [], postSchema).valid.map(normalise),
  };
}

/** engagementScore, and why it weighs what it does: docs/providers.md, "How each field is filled". */
export function engagementScore(metrics: XPost['metrics']): number {
  if (!metrics) return 0;
  return metrics.likes + metrics.replies + metrics.bookmarks + 2 * (metrics.reposts + metrics.quotes);
}

const CASHTAG = /\$([A-Za-z][A-Za-z0-9]{0,14})(?![A-Za-z0-9])/g;

/** X's cashtag entities, plus the cashtags in the whole text (a long post's tail has no entity in `entities`), upper case, once each. */
export function tokensOf(post: Pick<XPost, 'text' | 'cashtags'>): string[] {
  const tags = [...post.cashtags, ...[...post.text.matchAll(CASHTAG)].map((match) => match[1] ?? '')];
  return [...new Set(tags.map((tag) => tag.replace(/^\$/, '').toUpperCase()).filter((tag) => /^[A-Z0-9]{1,20}$/.test(tag)))];
}

/** One problem object of `errors[]` (partial errors on a 200, or a 400's reasons). */
const problemSchema = z.object({
  value: z.string().optional(),
  resource_id: z.string().optional(),
  detail: z.string().optional(),
  title: z.string().optional(),
  message: z.string().optional(),
  type: z.string().optional(),
  parameter: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
});
export type XProblem = z.infer<typeof problemSchema>;

export function problemsOf(errors: readonly unknown[] | undefined): XProblem[] {
  return parseItems(errors ?? [], problemSchema).valid;
}

/** The problems of an error body's `errors[]`; none when it has no such list. */
export function problemsIn(body: unknown): XProblem[] {
  const errors = (body as { errors?: unknown } | null | undefined)?.errors;
  return problemsOf(Array.isArray(errors) ? errors : []);
}

/** What a user lookup's problem says about the account: X titles a suspension "Forbidden" with type resource-not-found. */
export function accountProblem(problem: XProblem): 'suspended' | 'not_found' | 'protected' | undefined {
  const detail = `${problem.title ?? ''} ${problem.detail ?? ''}`;
  if (/suspended/i.test(detail)) return 'suspended';
  if (problem.type?.endsWith('/not-authorized-for-resource') || /protected/i.test(detail)) return 'protected';
  if (problem.type?.endsWith('/resource-not-found') || /could not find/i.test(detail)) return 'not_found';
  return undefined;
}

/** Whether a 400 body refuses the query parameter `name` (`errors[].parameters` keyed by it, or a message naming `[name]`). */
export function refusesParameter(body: unknown, name: string): boolean {
  return problemsIn(body).some(
    (problem) => (problem.parameters !== undefined && name in problem.parameters) || (problem.message ?? '').includes(`[${name}]`),
  );
}

/**
 * X's 403 `client-not-enrolled` (type .../client-forbidden): the token is valid, the app is not
 * attached to a Project with access to the endpoint. Said as such, not as a refused token.
 */
export function xRefusal(status: number, body: unknown): string | undefined {
  if (status !== 403 || typeof body !== 'object' || body === null) return undefined;
  const { reason, type } = body as { reason?: unknown; type?: unknown };
  if (reason === 'client-not-enrolled' || (typeof type === 'string' && type.endsWith('/client-forbidden'))) {
    return 'client-not-enrolled: the X app is not attached to a Project with access to this endpoint (enrol it in the developer portal); X_BEARER_TOKEN itself was accepted';
  }
  return undefined;
}
