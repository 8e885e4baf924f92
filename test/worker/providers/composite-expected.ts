/**
 * What the composite provider makes of the providers' fixture data (dev/provider-fixtures), stated
 * once: the in-process provider test and the Procfile test through the API expect the same figures.
 */

/** Trending as ranked: smart money first, then mentions; names and price changes from CoinGecko. */
export const FIXTURE_TRENDING = [
  { token: 'SOL', name: 'Solana', mentions: 120, smartMoneyMentions: 3, priceChange24h: 3.2 },
  { token: 'BTC', name: 'Bitcoin', mentions: 95, smartMoneyMentions: 1, priceChange24h: -1.5 },
  { token: 'PEPE', name: 'Pepe', mentions: 80, smartMoneyMentions: 1, priceChange24h: 0 },
  { token: 'AXL', name: 'Axelar', mentions: 40, smartMoneyMentions: 0, priceChange24h: 2.5 },
  { token: 'NEWCOIN', name: 'NEWCOIN', mentions: 12, smartMoneyMentions: 0, priceChange24h: 0 },
];

/**
 * CryptoAlice's stats, computed over the tracked set from her held posts. Engagement
 * (132 + 51 + 23) / 3; highest engagement and reach, influence tied: (0.4 × 0.5 + 0.35 + 0.25) × 100.
 */
export const FIXTURE_CRYPTOALICE_STATS = {
  username: 'CryptoAlice',
  indexScore: 80,
  smartMoneyRank: 1,
  totalPosts: 3,
  avgEngagement: 68.7,
  topTokens: ['SOL', 'BTC', 'PEPE', 'TAIL'],
};
