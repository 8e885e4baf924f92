// Trending tokens: mention counts come from the posts of the last 24 h of the simulated clock,
// so they move as posts enter and leave that day; price changes are smooth waves in time.

import type { PostStream } from './posts.js';
import { clamp, rngFor, round, unit } from './random.js';
import { TOKENS, type TokenInfo } from './tokens.js';
import { DAY_MS, MINUTE_MS } from '../../../shared/durations.js';
import { beyondDay } from './windows.js';

export interface WireTrendingToken {
  readonly symbol: string;
  readonly name: string;
  readonly mentions: number;
  readonly smart_mentions: number;
  readonly price_change_24h: number;
}

/**
 * 24 h price change in percent, -30..+40. Two sine waves per token (a slow swing over one to
 * three days, a fast one over hours) with seed-chosen periods and phases, on top of a drift
 * that follows the token's sentiment bias. Sampled per simulated minute.
 */
export function priceChange24h(seed: number, token: TokenInfo, now: number): number {
  const rng = rngFor(seed, 'price', token.symbol);
  const slowPeriod = 18 + rng() * 42;
  const slowPhase = rng() * 2 * Math.PI;
  const fastPeriod = 3 + rng() * 6;
  const fastPhase = rng() * 2 * Math.PI;
  const offset = (rng() - 0.5) * 6;
  const hours = Math.floor(now / MINUTE_MS) / 60;
  const wave = 10 * Math.sin((2 * Math.PI * hours) / slowPeriod + slowPhase) + 4 * Math.sin((2 * Math.PI * hours) / fastPeriod + fastPhase);
  return round(clamp(token.bias * 8 + offset + token.volatility * wave, -30, 40), 2);
}

/** Every token of the catalogue, ranked by smart mentions, then mentions, then symbol. */
export function trendingTokens(seed: number, stream: PostStream, postCount: number, now: number, windowMs = DAY_MS): WireTrendingToken[] {
  const raw = new Map<string, { mentions: number; smart: number }>();
  for (const t of TOKENS) raw.set(t.symbol, { mentions: 0, smart: 0 });
  // A window up to a day counts its own posts; a longer one the day's, grown (windows.ts).
  const from = Math.max(stream.oldestSlot(now), stream.firstSlotFrom(now - Math.min(windowMs, DAY_MS) + 1));
  for (let slot = stream.newestSlot(now); slot >= from; slot--) {
    const post = stream.post(slot);
    for (const symbol of post.wire.tokens) {
      const counts = raw.get(symbol);
      if (!counts) continue;
      counts.mentions++;
      if (post.smartAuthor) counts.smart++;
    }
  }
  // The posts served are a sample of what the index sees; scale counts to index-sized numbers
  // (independent of postCount), with a deterministic remainder so they don't look rounded.
  const scale = Math.max(1, 45_000 / postCount) * beyondDay(windowMs);
  const scaled = (label: string, symbol: string, n: number): number =>
    Math.floor(n * scale + (n > 0 ? unit(seed, label, symbol, n) * scale : 0));
  const rows = TOKENS.map((token): WireTrendingToken => {
    const counts = raw.get(token.symbol) ?? { mentions: 0, smart: 0 };
    const mentions = scaled('mentions', token.symbol, counts.mentions);
    return {
      symbol: token.symbol,
      name: token.name,
      mentions,
      smart_mentions: Math.min(mentions, scaled('smart', token.symbol, counts.smart)),
      price_change_24h: priceChange24h(seed, token, now),
    };
  });
  return rows.sort((a, b) => b.smart_mentions - a.smart_mentions || b.mentions - a.mentions || a.symbol.localeCompare(b.symbol));
}
