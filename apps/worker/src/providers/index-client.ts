/**
 * INDEX_PROVIDER=index: the provider boundary (market-provider.ts) over the upstream index's wire
 * API (docs/index-api.md), through upstream-http.ts, so INDEX_API_KEY goes to INDEX_API_URL's host
 * only. Retries belong to BullMQ: each error says whether one may help.
 */
import type { Got } from 'got';
import type { z } from 'zod';
import type { NewsItem } from '../../../../shared/market-types.js';
import { BASE_LIST_KINDS, listOf, type BaseListKind, type ListItem } from '../../../../shared/snapshot-kinds.js';
import type { ExtraWindow } from '../../../../shared/trending-windows.js';
import { parseRetryAfter, UpstreamError } from './upstream-error.js';
import {
  BodyTooLargeError,
  createUpstreamClient,
  fetchBounded,
  parseBoundedJson,
  requestErrorCode,
  type UpstreamAnswer,
} from './upstream-http.js';
import { accountPayload, postsPayload, toAccountStats, toNewsItem, WIRE_LISTS, type WireList } from './wire-schemas.js';
import type { ListCalls, MarketProvider } from './market-provider.js';

export interface IndexClientOptions {
  baseUrl: string;
  apiKey: string | undefined;
  /** Per-request timeout for snapshot listings. Default 10 s. */
  listTimeoutMs?: number;
  /** Per-request timeout for one account: the API waits for it. Default 3 s. */
  accountTimeoutMs?: number;
}

const POSTS_PAGE = 500;
/** Pages one posts read may take beyond what `max` needs: a cursor that never ends fails the refresh instead of paying forever. */
const EXTRA_POSTS_PAGES = 4;

export function createIndexClient(options: IndexClientOptions): MarketProvider {
  const http = createUpstreamClient(options.baseUrl, options.apiKey ? { 'x-api-key': options.apiKey } : {});
  const listTimeout = options.listTimeoutMs ?? 10_000;
  const accountTimeout = options.accountTimeoutMs ?? 3_000;

  // Each list kind's call, from its wire entry: the same request and checks for every ranked list.
  // A window other than the 24 hours is asked as `?window=` (docs/index-api.md); the 24 h list's request is unchanged.
  const fetchList = <N extends BaseListKind>(kind: N): ((window?: ExtraWindow) => Promise<ListItem<N>[]>) => {
    const { path, items }: WireList<ListItem<N>> = WIRE_LISTS[kind];
    return (window) => getJson(http, path, window ? { limit: 100, window } : { limit: 100 }, listTimeout, items);
  };
  const lists = Object.fromEntries(BASE_LIST_KINDS.map((kind) => [listOf(kind).upstream, fetchList(kind)])) as unknown as ListCalls;

  return {
    ...lists,
    async posts(since, max) {
      const seen = new Set<string>();
      const items: NewsItem[] = [];
      let cursor: string | null = null;
      const maxPages = Math.ceil(max / POSTS_PAGE) + EXTRA_POSTS_PAGES;
      // Every cursor followed; the first page has none.
      const cursors = new Set<string>();
      do {
        if (cursor !== null && (cursors.has(cursor) || cursors.size + 1 >= maxPages)) {
          throw new UpstreamError(
            `v1/posts: ${cursors.has(cursor) ? 'a cursor came back' : `more than ${maxPages} pages`} for ${max} posts at most: the cursor does not end; refresh failed`,
            { retryable: false },
          );
        }
        if (cursor !== null) cursors.add(cursor);
        const query = { since: since.toISOString(), limit: POSTS_PAGE, ...(cursor ? { cursor } : {}) };
        const page: z.infer<typeof postsPayload> = await getJson(http, 'v1/posts', query, listTimeout, postsPayload);
        for (const post of page.posts) {
          if (seen.has(post.id) || items.length >= max) continue;
          seen.add(post.id);
          items.push(toNewsItem(post));
        }
        cursor = page.next_cursor;
      } while (cursor && items.length < max);
      return items;
    },
    async account(username) {
      try {
        return toAccountStats(await getJson(http, `v1/accounts/${encodeURIComponent(username)}`, {}, accountTimeout, accountPayload));
      } catch (error) {
        if (error instanceof UpstreamError && error.status === 404) return null;
        throw error;
      }
    },
  };
}

async function getJson<T>(
  http: Got,
  path: string,
  searchParams: Record<string, string | number>,
  timeoutMs: number,
  schema: z.ZodType<T>,
): Promise<T> {
  let answer: UpstreamAnswer;
  try {
    answer = await fetchBounded(http, path, { searchParams, timeoutMs });
  } catch (error) {
    // got's errors become ours, without the request options (they hold the API key). A body too
    // large would come again: not retried; the next scheduled refresh asks anew.
    if (error instanceof BodyTooLargeError) throw new UpstreamError(`upstream ${path}: ${error.message}`, { retryable: false });
    throw new UpstreamError(`upstream ${path}: ${requestErrorCode(error)}`);
  }
  const { statusCode: status, headers } = answer;
  if (status < 200 || status >= 300) {
    if (status < 400) throw new UpstreamError(`upstream ${path}: HTTP ${status}, a redirect (not followed)`, { status, retryable: false });
    // 408 and 429 pass with time, 5xx may; other 4xx mean our request is wrong.
    const retryable = status === 408 || status === 429 || status >= 500;
    throw new UpstreamError(`upstream ${path}: HTTP ${status}`, {
      status,
      retryable,
      retryAfterMs: parseRetryAfter(headers['retry-after']),
    });
  }
  const json = parseBoundedJson(answer.body)?.json;
  if (json === undefined) throw new UpstreamError(`upstream ${path}: malformed JSON`);
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new UpstreamError(`upstream ${path}: invalid payload (${parsed.error.issues[0]?.message ?? 'schema'})`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}
