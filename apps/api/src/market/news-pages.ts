/**
 * The news snapshot as pages, of every post or of those mentioning a token: items serialized once
 * and indexed by ticker, pages memoised, so page 100 costs what page 1 does. The key space is the
 * client's (page x limit x token), so an empty page is never kept, and pages of the usual limits
 * are kept apart from the rest, which a stream of odd limits can only evict among themselves.
 */
import type { NewsItem, Snapshot } from '../../../../shared/market-types.js';
import { boundedCache } from '../cache/bounded-cache.js';
import { Representation } from '../http/representation.js';
import { NEWS_DEFAULT_LIMIT, NEWS_MAX_LIMIT } from './market-queries.js';

/** Pages of the usual limits kept per snapshot. */
const MAX_MEMOISED_PAGES = 500;
/** Pages of any other limit kept per snapshot, apart. */
const MAX_OTHER_PAGES = 100;
/** The default and the largest limit. */
const USUAL_LIMITS: ReadonlySet<number> = new Set([NEWS_DEFAULT_LIMIT, NEWS_MAX_LIMIT]);

const NO_ITEMS: readonly string[] = Object.freeze([]);

export class NewsPages {
  private readonly items: string[];
  /** Each ticker's posts (upper-cased, as parseNewsQuery gives it), in snapshot order. */
  private readonly byToken = new Map<string, string[]>();
  private readonly memo = boundedCache<string, Representation>({ max: MAX_MEMOISED_PAGES });
  private readonly others = boundedCache<string, Representation>({ max: MAX_OTHER_PAGES });

  constructor(private readonly snapshot: Snapshot<NewsItem[]>) {
    this.items = snapshot.data.map((item) => JSON.stringify(item));
    snapshot.data.forEach((item, index) => {
      // A post that names a ticker twice (or in two cases) is listed once under it.
      for (const token of new Set(item.tokens.map((t) => t.toUpperCase()))) {
        let posts = this.byToken.get(token);
        if (!posts) this.byToken.set(token, (posts = []));
        posts.push(this.items[index]!);
      }
    });
  }

  /** The posts with these ids that the snapshot holds, as stored (newest first), each once: a story's posts. */
  postsWithIds(ids: readonly string[]): NewsItem[] {
    const wanted = new Set(ids);
    return this.snapshot.data.filter((item) => wanted.has(item.id));
  }

  get total(): number {
    return this.items.length;
  }

  /** Page `page` (1-based) of `limit` items, of the posts mentioning `token` if given (docs/decisions.md#d6, #d15). */
  page(page: number, limit: number, token?: string): Representation {
    const key = token === undefined ? `${page}:${limit}` : `${page}:${limit}:${token}`;
    const memo = USUAL_LIMITS.has(limit) ? this.memo : this.others;
    let representation = memo.get(key);
    if (!representation) {
      const items = token === undefined ? this.items : (this.byToken.get(token) ?? NO_ITEMS);
      const start = (page - 1) * limit;
      const slice = start < items.length ? items.slice(start, start + limit) : [];
      const pagination = JSON.stringify({ page, limit, total: items.length });
      const cachedAt = JSON.stringify(this.snapshot.cachedAt);
      representation = new Representation(Buffer.from(`{"data":[${slice.join(',')}],"pagination":${pagination},"cachedAt":${cachedAt}}`));
      if (slice.length > 0) memo.set(key, representation);
    }
    return representation;
  }
}
