/**
 * CoinGecko's `/coins/markets` as it answers today (docs/providers.md): an array of coins with
 * every documented field, the nullable ones null where a thin coin has no figure (rank, 24 h
 * change, highs and lows), colliding tickers (two coins answer `axl`), the demo key header, and
 * CoinGecko's error bodies: `{"status":{"error_code",...}}` (401 10002 for a keyless call when
 * the fixture demands a key, 429 with `Retry-After`), `{"error":"..."}` for a bad request.
 * The base path carries the version, like the real base URL.
 */
import { startFixtureServer, type FixtureAnswer, type FixtureServer } from './fixture-server.js';

export const COINGECKO_KEY = 'CG-demo-fixture-key-0001';

const COINS = [
  { id: 'solana', symbol: 'sol', name: 'Solana', market_cap_rank: 5, price_change_percentage_24h: 3.2 },
  { id: 'bitcoin', symbol: 'btc', name: 'Bitcoin', market_cap_rank: 1, price_change_percentage_24h: -1.5 },
  { id: 'pepe', symbol: 'pepe', name: 'Pepe', market_cap_rank: 30, price_change_percentage_24h: null },
  { id: 'axl-inu', symbol: 'axl', name: 'AXL INU', market_cap_rank: null, price_change_percentage_24h: 40 },
  { id: 'axelar', symbol: 'axl', name: 'Axelar', market_cap_rank: 150, price_change_percentage_24h: '2.5' },
];

/** A row with every field of `/coins/markets`; a coin without a 24 h change has no 24 h figures at all. */
function row(coin: (typeof COINS)[number]) {
  const thin = coin.price_change_percentage_24h === null;
  return {
    id: coin.id,
    symbol: coin.symbol,
    name: coin.name,
    image: `https://assets.example/coins/images/${coin.id}/large.png?1700000000`,
    current_price: 1.23,
    market_cap: coin.market_cap_rank === null ? 0 : 1_000_000,
    market_cap_rank: coin.market_cap_rank,
    fully_diluted_valuation: null,
    total_volume: 1000,
    high_24h: thin ? null : 1.3,
    low_24h: thin ? null : 1.1,
    price_change_24h: thin ? null : 0.04,
    price_change_percentage_24h: coin.price_change_percentage_24h,
    market_cap_change_24h: thin ? null : 1200.5,
    market_cap_change_percentage_24h: thin ? null : 0.12,
    circulating_supply: 1_000_000,
    total_supply: 2_000_000,
    max_supply: null,
    ath: 9.9,
    ath_change_percentage: -87.6,
    ath_date: '2025-01-19T09:12:00.000Z',
    atl: 0.01,
    atl_change_percentage: 12200.4,
    atl_date: '2023-06-10T00:00:00.000Z',
    roi: null,
    last_updated: '2026-11-26T03:00:00.000Z',
    price_change_percentage_24h_in_currency: coin.price_change_percentage_24h,
  };
}

/** CoinGecko's 429, as recorded live: the status object and `Retry-After` in seconds, no other rate header. */
export function coingeckoRateLimited(retryAfterSeconds: number): FixtureAnswer {
  return {
    status: 429,
    headers: { 'retry-after': String(retryAfterSeconds) },
    body: { status: { error_code: 429, error_message: "You've exceeded the Rate Limit. Please see the plans for higher rate limits." } },
  };
}

/** A Demo key sent to the Pro host: HTTP 400, the code at the top level. */
export const COINGECKO_WRONG_HOST: FixtureAnswer = {
  status: 400,
  body: {
    timestamp: '2026-11-26T03:00:00.000+00:00',
    error_code: 10011,
    status: { error_message: 'If you are using Demo API key, please change your root URL to the Demo host' },
  },
};

/** What the fixture plays: `requireKey` refuses keyless calls (401, error 10002), as CoinGecko may today. */
export interface CoinGeckoMode {
  requireKey: boolean;
}

export interface CoinGeckoFixture extends FixtureServer {
  mode: CoinGeckoMode;
}

export async function startCoinGeckoFixture(): Promise<CoinGeckoFixture> {
  const mode: CoinGeckoMode = { requireKey: false };
  const server = await startFixtureServer(
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
      if (key === undefined && mode.requireKey) {
        return {
          status: 401,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: {
            status: {
              timestamp: new Date().toISOString().replace('Z', '+00:00'),
              error_code: 10002,
              error_message: "API Key Missing. Please make sure you're using the right authentication method.",
            },
          },
        };
      }
      if (key === undefined || key === COINGECKO_KEY) return undefined;
      return { status: 401, body: { status: { error_code: 10002, error_message: 'Invalid API Key' } } };
    },
    '/api/v3',
  );
  return Object.assign(server, { mode });
}
