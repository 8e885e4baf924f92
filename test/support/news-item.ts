import type { NewsItem } from '../../shared/market-types.js';

/** A tracked post about SOL with the given id, as the news snapshot holds it: the alert tests' new posts. */
export const solPost = (id: string): NewsItem => ({
  id,
  text: `${id} about SOL`,
  author: 'someone',
  authorFollowers: 5000,
  publishedAt: '2026-12-01T00:00:00.000Z',
  tokens: ['SOL'],
  engagementScore: 50,
});
