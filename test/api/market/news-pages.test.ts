import { expect } from 'chai';
import { NewsPages } from '../../../apps/api/src/market/news-pages.js';
import type { NewsItem } from '../../../shared/market-types.js';

const item = (i: number): NewsItem => ({
  id: String(i), text: `post "${i}" ✓`, author: 'a', authorFollowers: 1, publishedAt: '2026-11-21T00:00:00.000Z', tokens: ['SOL'], engagementScore: i / 3,
});

describe('news pages', () => {
  const pages = new NewsPages({ data: Array.from({ length: 45 }, (_, i) => item(i)), cachedAt: '2026-11-21T01:00:00.000Z' });
  const parse = (page: number, limit: number) => JSON.parse(pages.page(page, limit).body.toString()) as { data: NewsItem[]; pagination: unknown; cachedAt: string };

  it('slices in order and echoes page, limit and total, as JSON.stringify would have written it', () => {
    const second = parse(2, 20);
    expect(second.data.map((n) => n.id)).to.deep.equal(Array.from({ length: 20 }, (_, i) => String(20 + i)));
    expect(second.pagination).to.deep.equal({ page: 2, limit: 20, total: 45 });
    expect(pages.page(3, 20).body.toString()).to.equal(
      JSON.stringify({ data: Array.from({ length: 5 }, (_, i) => item(40 + i)), pagination: { page: 3, limit: 20, total: 45 }, cachedAt: '2026-11-21T01:00:00.000Z' }),
    );
  });

  it('past the end: no items, same echo', () => {
    expect(parse(4, 20)).to.deep.equal({ data: [], pagination: { page: 4, limit: 20, total: 45 }, cachedAt: '2026-11-21T01:00:00.000Z' });
  });

  it('memoises a page: the same representation (and ETag) on every read', () => {
    expect(pages.page(1, 10)).to.equal(pages.page(1, 10));
  });
});
