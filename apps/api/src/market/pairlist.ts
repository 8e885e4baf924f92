/**
 * GET /api/market/pairlist: a ranked list as the pairs a trading bot loads (Freqtrade's
 * RemotePairList format). Built from the snapshot held in memory, so the last good list is what a
 * failed refresh leaves served; `refresh_period` is the seconds to the next refresh.
 */
import type { ParsedUrlQuery } from 'node:querystring';
import { z } from 'zod';
import { BadRequestError } from '../../../../shared/errors.js';
import { MINDSHARE_WINDOWS, type MindshareWindow } from '../../../../shared/mindshare.js';
import { windowedKind } from '../../../../shared/snapshot-kinds.js';
import { TRENDING_WINDOWS, type TrendingWindow } from '../../../../shared/trending-windows.js';
import { secondsLeft, type SnapshotCache } from './snapshot-cache.js';

export const PAIRLIST_SOURCES = ['trending', 'mindshare'] as const;
export type PairlistSource = (typeof PAIRLIST_SOURCES)[number];
export const PAIRLIST_MAX_TOP = 100;
/** A refresh already due still answers a short period, so a bot does not ask again on every loop. */
const MIN_REFRESH_PERIOD_S = 30;
const SYMBOL = /^[A-Za-z0-9]{1,20}$/;
const SYMBOLS = /^[A-Za-z0-9]{1,20}(,[A-Za-z0-9]{1,20}){0,99}$/;

export const PairlistQuerySchema = z.object({
  source: z.enum(PAIRLIST_SOURCES).optional().meta({ description: 'The ranking: `trending` (the default) or `mindshare`.' }),
  window: z
    .enum(TRENDING_WINDOWS)
    .optional()
    .meta({
      description: `The ranking's window. For trending one of TRENDING_WINDOWS (${TRENDING_WINDOWS.join(', ')}; only those the operator configures are served), for mindshare ${MINDSHARE_WINDOWS.join(', ')} (4h is a 400). Default 24h.`,
    }),
  top: z
    .string()
    .max(3)
    .regex(/^(100|[1-9][0-9]?)$/)
    .optional()
    .meta({ description: `How many pairs, 1 to ${PAIRLIST_MAX_TOP}. Default 20.` }),
  quote: z
    .string()
    .max(20)
    .regex(SYMBOL)
    .optional()
    .meta({ description: 'The quote currency of every pair, 1-20 letters or digits. Default USDT.' }),
  exclude: z
    .string()
    .max(2099)
    .regex(SYMBOLS)
    .optional()
    .meta({ description: 'Comma-separated tickers to leave out (BTC,ETH), by the index’s ticker or the mapped base; up to 100.' }),
});

export interface PairlistQuery {
  source: PairlistSource;
  window: TrendingWindow | MindshareWindow;
  top: number;
  quote: string;
  exclude: ReadonlySet<string>;
}

/** Freqtrade's RemotePairList body, with the snapshot's time for the record. */
export const PairlistSchema = z
  .object({
    pairs: z.array(z.string()).meta({ description: 'BASE/QUOTE pairs, best ranked first.' }),
    refresh_period: z.int().nonnegative().meta({ description: 'Seconds until the list is refreshed (at least 30).' }),
    cachedAt: z.iso.datetime().meta({ description: 'When the ranking the pairs come from was refreshed.' }),
  })
  .meta({ id: 'Pairlist', description: 'A pair list in Freqtrade’s RemotePairList format.' });
export type Pairlist = z.infer<typeof PairlistSchema>;

const one = (raw: string | string[] | undefined) => (Array.isArray(raw) ? undefined : raw);
const invalid = (name: string, allowed: string) => new BadRequestError(`Invalid query parameter: ${name}: ${allowed}`);

export function parsePairlistQuery(query: ParsedUrlQuery, configured: readonly TrendingWindow[]): PairlistQuery {
  const source = one(query.source) ?? 'trending';
  if (!(PAIRLIST_SOURCES as readonly string[]).includes(source)) throw invalid('source', `one of ${PAIRLIST_SOURCES.join(', ')}`);
  const windows: readonly string[] = source === 'trending' ? configured : MINDSHARE_WINDOWS;
  const window = one(query.window) ?? '24h';
  if (!windows.includes(window)) throw invalid('window', `for ${source}, one of ${windows.join(', ')}`);
  const top = one(query.top) ?? '20';
  if (!/^\d{1,3}$/.test(top) || Number(top) < 1 || Number(top) > PAIRLIST_MAX_TOP)
    throw invalid('top', `a whole number from 1 to ${PAIRLIST_MAX_TOP}`);
  const quote = one(query.quote) ?? 'USDT';
  if (!SYMBOL.test(quote)) throw invalid('quote', '1-20 letters or digits, such as USDT');
  const exclude = one(query.exclude) ?? '';
  if (exclude !== '' && !SYMBOLS.test(exclude)) throw invalid('exclude', 'comma-separated tickers of 1-20 letters or digits, up to 100');
  return {
    source: source as PairlistSource,
    window: window as TrendingWindow | MindshareWindow,
    top: Number(top),
    quote: quote.toUpperCase(),
    exclude: new Set(exclude === '' ? [] : exclude.toUpperCase().split(',')),
  };
}

interface Ranked {
  tickers: readonly string[];
  cachedAt: string;
  expiresAt: number;
}

/** The tickers of a ranked body (`{ data: [{ token }] }`), parsed once per body. */
function tickersOf(body: Buffer): readonly string[] {
  const { data } = JSON.parse(body.toString('utf8')) as { data: { token: string }[] };
  return data.map((item) => item.token.replace(/^\$/, '').toUpperCase());
}

export class PairlistService {
  constructor(
    private readonly snapshots: SnapshotCache,
    /** PAIRLIST_SYMBOLS: ticker -> the exchange's base. */
    private readonly symbols: Readonly<Record<string, string>>,
  ) {}

  async pairlist(query: PairlistQuery, now = Date.now()): Promise<Pairlist> {
    const { tickers, cachedAt, expiresAt } = await this.ranked(query);
    const pairs: string[] = [];
    for (const ticker of tickers) {
      const base = this.symbols[ticker] ?? ticker;
      if (query.exclude.has(ticker) || query.exclude.has(base.toUpperCase())) continue;
      const pair = `${base}/${query.quote}`;
      if (base.toUpperCase() === query.quote || pairs.includes(pair)) continue;
      pairs.push(pair);
      if (pairs.length === query.top) break;
    }
    return { pairs, refresh_period: Math.max(MIN_REFRESH_PERIOD_S, secondsLeft(expiresAt, now)), cachedAt };
  }

  private async ranked(query: PairlistQuery): Promise<Ranked> {
    if (query.source === 'mindshare') {
      const snapshot = await this.snapshots.get('mindshare');
      const representation = snapshot.view.byWindow.get(query.window);
      return { tickers: representation ? representation.formOf(tickersOf) : [], ...snapshot };
    }
    const snapshot = await this.snapshots.get(windowedKind('trending', query.window));
    return { tickers: snapshot.view.representation.formOf(tickersOf), ...snapshot };
  }
}
