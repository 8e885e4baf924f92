/**
 * CoinGecko (docs/providers.md, "CoinGecko"): names and 24-hour price change by ticker. Tickers
 * collide: the highest-ranked coin wins the first time a ticker is met, and the choice is
 * remembered in Redis, so a ticker keeps naming the same coin while CoinGecko still returns it.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { providerKeys } from '../../../../shared/provider-keys.js';
import type { ProviderHttp } from './upstream-http.js';
import { lenientNumber, numeric, parseItems } from './tolerant.js';
import { UpstreamError } from './upstream-error.js';

export interface CoinQuote {
  name: string;
  /** Percent over 24 hours; null when CoinGecko has none (a stale or new coin). */
  priceChange24h: number | null;
}

export interface CoinGeckoAdapter {
  /** Quotes for the tickers (upper case) CoinGecko resolves; the others are absent from the map. */
  quotes(tickers: readonly string[]): Promise<Map<string, CoinQuote>>;
}

/** The documented maximum of `symbols` per call is unknown: 100 is well inside `per_page=250`. */
const SYMBOLS_PER_CALL = 100;

const marketRow = z.object({
  id: z.string().min(1),
  symbol: z.string().min(1),
  name: z.string().min(1),
  market_cap_rank: lenientNumber(Number.POSITIVE_INFINITY).nullable().optional(),
  price_change_percentage_24h: z.preprocess(numeric(null), z.number().finite().nullable()),
});
export type MarketRow = z.infer<typeof marketRow>;

const rank = (row: MarketRow) =>
  typeof row.market_cap_rank === 'number' && Number.isFinite(row.market_cap_rank) ? row.market_cap_rank : Number.POSITIVE_INFINITY;

/** A `/coins/markets` body: an array of coins, each valid row kept (nullable figures allowed). */
export function parseMarkets(body: unknown): MarketRow[] {
  if (!Array.isArray(body)) throw new UpstreamError('coingecko /coins/markets: not an array', { retryable: false });
  return parseItems(body, marketRow).valid;
}

export function createCoinGeckoAdapter(http: ProviderHttp, redis: Redis, pins: Readonly<Record<string, string>>): CoinGeckoAdapter {
  async function markets(searchParams: Record<string, string | number>): Promise<MarketRow[]> {
    const { body } = await http.get('/coins/markets', { searchParams: { vs_currency: 'usd', per_page: 250, page: 1, ...searchParams } });
    return parseMarkets(body);
  }

  return {
    async quotes(tickers) {
      const wanted = [...new Set(tickers.map((ticker) => ticker.toUpperCase()))];
      const result = new Map<string, CoinQuote>();
      if (wanted.length === 0) return result;
      const remembered = await redis.hgetall(providerKeys.coingeckoIds());
      const chosen: Record<string, string> = {};

      const free = wanted.filter((ticker) => !pins[ticker]);
      const rows: MarketRow[] = [];
      for (let at = 0; at < free.length; at += SYMBOLS_PER_CALL) {
        const symbols = free.slice(at, at + SYMBOLS_PER_CALL).map((ticker) => ticker.toLowerCase());
        rows.push(...(await markets({ symbols: symbols.join(','), include_tokens: 'top' })));
      }
      const pinnedIds = wanted.flatMap((ticker) => (pins[ticker] ? [pins[ticker]] : []));
      if (pinnedIds.length > 0) rows.push(...(await markets({ ids: pinnedIds.join(',') })));

      const byTicker = Map.groupBy(rows, (row) => row.symbol.toUpperCase());
      for (const ticker of wanted) {
        const candidates = byTicker.get(ticker) ?? [];
        const pinned = pins[ticker];
        const row = pinned
          ? rows.find((candidate) => candidate.id === pinned)
          : (candidates.find((candidate) => candidate.id === remembered[ticker]) ?? [...candidates].sort((a, b) => rank(a) - rank(b))[0]);
        if (!row) continue;
        if (!pinned && remembered[ticker] !== row.id) chosen[ticker] = row.id;
        result.set(ticker, { name: row.name, priceChange24h: row.price_change_percentage_24h ?? null });
      }
      if (Object.keys(chosen).length > 0) await redis.hset(providerKeys.coingeckoIds(), chosen);
      return result;
    },
  };
}
