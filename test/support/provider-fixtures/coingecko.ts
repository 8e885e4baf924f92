/**
 * CoinGecko's `/coins/markets` as docs/providers.md describes it: an array of coins, nullable
 * figures, colliding tickers (two coins answer `axl`), the demo key header, CoinGecko's error
 * bodies. The base path carries the version, like the real base URL.
 */
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

export const COINGECKO_KEY = 'CG-demo-fixture-key-0001';

const COINS = [
  { id: 'solana', symbol: 'sol', name: 'Solana', market_cap_rank: 5, price_change_percentage_24h: 3.2 },
  { id: 'bitcoin', symbol: 'btc', name: 'Bitcoin', market_cap_rank: 1, price_change_percentage_24h: -1.5 },
  { id: 'pepe', symbol: 'pepe', name: 'Pepe', market_cap_rank: 30, price_change_percentage_24h: null },
  { id: 'axl-inu', symbol: 'axl', name: 'AXL INU', market_cap_rank: null, price_change_percentage_24h: 40 },
  { id: 'axelar', symbol: 'axl', name: 'Axelar', market_cap_rank: 150, price_change_percentage_24h: '2.5' },
];

function row(coin: (typeof COINS)[number]) {
  return {
    ...coin,
    image: `https://assets.example/${coin.id}.png`,
    current_price: 1.23,
    market_cap: null,
    fully_diluted_valuation: null,
    total_volume: 1000,
    last_updated: '2026-11-26T03:00:00.000Z',
    roi: null,
    price_change_percentage_24h_in_currency: coin.price_change_percentage_24h,
  };
}

export function startCoinGeckoFixture(): Promise<FixtureServer> {
  return startFixtureServer(
    {
      '/coins/markets': (request) => {
        if (!request.query.vs_currency) return { status: 400, body: { error: 'Missing parameter vs_currency' } };
        const symbols = request.query.symbols?.split(',') ?? [];
        const ids = request.query.ids?.split(',') ?? [];
        return { body: COINS.filter((coin) => symbols.includes(coin.symbol) || ids.includes(coin.id)).map(row) };
      },
      '/ping': () => ({ body: { gecko_says: '(V3) To the Moon!' } }),
    },
    (headers) => {
      const key = headers['x-cg-demo-api-key'];
      if (key === undefined || key === COINGECKO_KEY) return undefined;
      return { status: 401, body: { status: { error_code: 10002, error_message: 'Invalid API Key' } } };
    },
    '/api/v3',
  );
}
