import { expect } from 'chai';
import { NewsPages } from '../../../apps/api/src/market/news-pages.js';
import type { NewsItem } from '../../../shared/market-types.js';

const item = (i: number): NewsItem => ({
  id: String(i),
  text: `post "${i}" ✓`,
  author: 'a',
  authorFollowers: 1,
  publishedAt: '2026-11-21T00:00:00.000Z',
  tokens: ['SOL'],
  engagementScore: i / 3,
});

describe('news pages', () => {
  const pages = new NewsPages({ data: Array.from({ length: 45 }, (_, i) => item(i)), cachedAt: '2026-11-21T01:00:00.000Z' });
  const parse = (page: number, limit: number) =>
    JSON.parse(pages.page(page, limit).body.toString()) as { data: NewsItem[]; pagination: unknown; cachedAt: string };

  it('slices in order and echoes page, limit and total, as JSON.stringify would have written it', () => {
    const second = parse(2, 20);
    expect(second.data.map((n) => n.id)).to.deep.equal(Array.from({ length: 20 }, (_, i) => String(20 + i)));
    expect(second.pagination).to.deep.equal({ page: 2, limit: 20, total: 45 });
    expect(pages.page(3, 20).body.toString()).to.equal(
      JSON.stringify({
        data: Array.from({ length: 5 }, (_, i) => item(40 + i)),
        pagination: { page: 3, limit: 20, total: 45 },
        cachedAt: '2026-11-21T01:00:00.000Z',
      }),
    );
  });

  it('past the end: no items, same echo', () => {
    expect(parse(4, 20)).to.deep.equal({ data: [], pagination: { page: 4, limit: 20, total: 45 }, cachedAt: '2026-11-21T01:00:00.000Z' });
  });

  it('memoises a page: the same representation (and ETag) on every read', () => {
    expect(pages.page(1, 10)).to.equal(pages.page(1, 10));
  });

  it('when a client reads thousands of distinct empty pages and odd limits, then the pages of the usual limits stay memoised (issue 38 item 6)', () => {
    const first = pages.page(1, 20);
    const largest = pages.page(1, 50);
    for (let n = 0; n < 2000; n += 1) {
      pages.page(1000 + n, 20); // past the end
      pages.page(1, 20, `ZZ${n}`); // a token no post mentions
      pages.page(1 + (n % 3), 1 + (n % 49)); // odd limits
    }
    expect(pages.page(1, 20)).to.equal(first);
    expect(pages.page(1, 50)).to.equal(largest);
    // An empty page is built for each read, never kept.
    expect(pages.page(5000, 20)).not.to.equal(pages.page(5000, 20));
  });

  describe('of one token', () => {
    const post = (id: string, tokens: string[]): NewsItem => ({ ...item(0), id, tokens });
    const mixed = new NewsPages({
      data: [post('1', ['SOL', 'BTC']), post('2', ['ETH']), post('3', ['sol']), post('4', ['Sol', 'SOL']), post('5', [])],
      cachedAt: '2026-11-21T01:00:00.000Z',
    });
    const ids = (page: number, limit: number, token: string) =>
      (JSON.parse(mixed.page(page, limit, token).body.toString()) as { data: NewsItem[] }).data.map((n) => n.id);
    const paginationOf = (page: number, limit: number, token: string) =>
      (JSON.parse(mixed.page(page, limit, token).body.toString()) as { pagination: unknown }).pagination;

    it('lists only the posts that mention it, in any case, each once, in snapshot order', () => {
      expect(ids(1, 10, 'SOL')).to.deep.equal(['1', '3', '4']);
      expect(ids(1, 10, 'ETH')).to.deep.equal(['2']);
    });

    it('pages the matching posts, and total counts them', () => {
      expect(ids(2, 2, 'SOL')).to.deep.equal(['4']);
      expect(paginationOf(2, 2, 'SOL')).to.deep.equal({ page: 2, limit: 2, total: 3 });
    });

    it('a token no post mentions: an empty page with total 0', () => {
      expect(JSON.parse(mixed.page(1, 20, 'DOGE').body.toString())).to.deep.equal({
        data: [],
        pagination: { page: 1, limit: 20, total: 0 },
        cachedAt: '2026-11-21T01:00:00.000Z',
      });
    });

    it('keeps the unfiltered pages apart from the filtered ones', () => {
      expect(paginationOf(1, 10, 'SOL')).to.not.deep.equal(
        (JSON.parse(mixed.page(1, 10).body.toString()) as { pagination: unknown }).pagination,
      );
      expect(mixed.page(1, 10, 'SOL')).to.equal(mixed.page(1, 10, 'SOL'));
    });
  });
});
