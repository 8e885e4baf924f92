/**
 * The news snapshot as pages. Items are serialized once per snapshot; a page is a join of
 * pre-serialized items, memoised with its ETag and compressed forms, so page 100 costs what
 * page 1 does.
 */
import type { NewsItem, Snapshot } from '../../../../shared/market-types.js';
import { boundedCache } from '../cache/bounded-cache.js';
import { Representation } from '../http/representation.js';

/** Pages kept per snapshot; beyond this the least recently read go (bounded memory). */
const MAX_MEMOISED_PAGES = 500;

export class NewsPages {
  private readonly items: string[];
  private readonly memo = boundedCache<string, Representation>({ max: MAX_MEMOISED_PAGES });

  constructor(private readonly snapshot: Snapshot<NewsItem[]>) {
    this.items = snapshot.data.map((item) => JSON.stringify(item));
  }

  get total(): number {
    return this.items.length;
  }

  /** Page `page` (1-based) of `limit` items; past the end, an empty page with the same echo (docs/decisions.md#d6). */
  page(page: number, limit: number): Representation {
    const key = `${page}:${limit}`;
    let representation = this.memo.get(key);
    if (!representation) {
      const start = (page - 1) * limit;
      const slice = start < this.items.length ? this.items.slice(start, start + limit) : [];
      const pagination = JSON.stringify({ page, limit, total: this.items.length });
      const cachedAt = JSON.stringify(this.snapshot.cachedAt);
      representation = new Representation(
        Buffer.from(`{"data":[${slice.join(',')}],"pagination":${pagination},"cachedAt":${cachedAt}}`),
      );
      this.memo.set(key, representation);
    }
    return representation;
  }
}
