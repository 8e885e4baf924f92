/**
 * The windows a trending list can be counted over (`?window=` of GET /api/market/trending and
 * /trending-cas). Without `window`: the 24 hours, always refreshed; each other window in
 * TRENDING_WINDOWS is a snapshot kind of its own (shared/snapshot-kinds.ts).
 */
import { z } from 'zod';
import { got } from './config-vars.js';

export const TRENDING_WINDOWS = ['1h', '4h', '24h', '7d', '30d'] as const;
export type TrendingWindow = (typeof TRENDING_WINDOWS)[number];

/** The window of the lists without `window` (Elfa's and the index's "last 24 hours"). */
export const DEFAULT_WINDOW = '24h' satisfies TrendingWindow;
/** The windows that are snapshot kinds of their own. */
export type ExtraWindow = Exclude<TrendingWindow, typeof DEFAULT_WINDOW>;
export const EXTRA_WINDOWS = TRENDING_WINDOWS.filter((window): window is ExtraWindow => window !== DEFAULT_WINDOW);

export const WINDOW_MS: Readonly<Record<TrendingWindow, number>> = {
  '1h': 3_600_000,
  '4h': 4 * 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 24 * 3_600_000,
  '30d': 30 * 24 * 3_600_000,
};

export const isTrendingWindow = (raw: unknown): raw is TrendingWindow => (TRENDING_WINDOWS as readonly unknown[]).includes(raw);

/**
 * TRENDING_WINDOWS (`1h,24h,7d`): the windows refreshed and served, in the canonical order. The
 * 24 h window is always among them (it is the answer without `window`), listed or not. Default: `24h`.
 */
export const TRENDING_WINDOWS_VAR: z.ZodType<readonly TrendingWindow[], string> = z
  .string()
  .refine(
    (raw) => raw.split(',').every((part) => isTrendingWindow(part.trim())),
    got(`must be a comma-separated list of ${TRENDING_WINDOWS.join(', ')}`),
  )
  .transform((raw) => {
    const given = raw.split(',').map((part) => part.trim());
    return TRENDING_WINDOWS.filter((window) => window === DEFAULT_WINDOW || given.includes(window));
  });
