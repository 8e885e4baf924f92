/**
 * The label rule of docs/decisions.md#d2 on its own, without the scorer: the API labels bucketed history with it, and
 * importing aggregate.ts there would load the lexicons and the learned model (~30 MB of RSS).
 */
import type { SentimentRecord } from './market-types.js';

/** The label boundaries of docs/decisions.md#d2 (inclusive). */
export const BULLISH_AT = 0.15;
export const BEARISH_AT = -0.15;

export function labelFor(score: number): SentimentRecord['label'] {
  if (score >= BULLISH_AT) return 'bullish';
  if (score <= BEARISH_AT) return 'bearish';
  return 'neutral';
}
