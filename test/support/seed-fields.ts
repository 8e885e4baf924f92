/** The fields of `GET /api/market/stats/:username` the seed interface names (docs/interface.md): they never change. */
export const SEED_STATS_FIELDS = [
  'username',
  'indexScore',
  'smartMoneyRank',
  'totalPosts',
  'avgEngagement',
  'topTokens',
  'cachedAt',
] as const;
