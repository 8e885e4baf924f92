/** The market reads' request schemas (the OpenAPI document's too) and their parsers: each invalid value a 400 naming it. */
import type { ParsedUrlQuery } from 'node:querystring';
import { z } from 'zod';
import { BadRequestError } from '../../../../shared/errors.js';
import { parseTicker, positiveIntegerQuery, TickerParam, UsernameParam } from '../../../../shared/identifiers.js';
import { DEFAULT_WINDOW, TRENDING_WINDOWS, type TrendingWindow } from '../../../../shared/trending-windows.js';

export const NEWS_DEFAULT_LIMIT = 20;
export const NEWS_MAX_LIMIT = 50;

/** The history intervals: `30m` is every refresh as it was, the others buckets aligned to UTC. */
export const HISTORY_INTERVALS = ['30m', '1h', '4h', '1d'] as const;
export type Interval = (typeof HISTORY_INTERVALS)[number];

/** GET /api/market/news's query. */
export const NewsQuerySchema = z.object({
  limit: positiveIntegerQuery(NEWS_DEFAULT_LIMIT).meta({
    description:
      'Number of items to return: a positive whole number in decimal digits, default 20, maximum 50 ' +
      '(a larger value is clamped to 50, and the pagination echo says 50).',
  }),
  page: positiveIntegerQuery(1).meta({ description: 'Page number: a positive whole number in decimal digits, default 1.' }),
  token: TickerParam.optional().meta({
    description:
      'Only posts that mention this ticker (in their `tokens`), matched case-insensitively; an optional leading $ is dropped; ' +
      '1-20 of [A-Za-z0-9]. `pagination.total` counts the matching posts; a ticker no post mentions is an empty page.',
  }),
});
export const UsernamePathSchema = z.object({ username: UsernameParam });
export const TokenPathSchema = z.object({ token: TickerParam });

export interface NewsQuery {
  page: number;
  limit: number;
  /** Upper-cased ticker: only the posts that mention it. Absent: every post. */
  token: string | undefined;
}

/** docs/decisions.md#d6: defaults 1 and 20; a limit above 50 is clamped (and echoed as 50); `token` filters (docs/decisions.md#d15). */
export function parseNewsQuery(query: ParsedUrlQuery): NewsQuery {
  const limit = NewsQuerySchema.shape.limit.safeParse(query.limit);
  if (!limit.success) throw new BadRequestError('Invalid query parameter: limit');
  const page = NewsQuerySchema.shape.page.safeParse(query.page);
  if (!page.success) throw new BadRequestError('Invalid query parameter: page');
  const token = NewsQuerySchema.shape.token.safeParse(query.token);
  if (!token.success) throw new BadRequestError('Invalid query parameter: token');
  return { page: page.data ?? 1, limit: Math.min(limit.data ?? NEWS_DEFAULT_LIMIT, NEWS_MAX_LIMIT), token: token.data };
}

export function parseUsernameParam(raw: string | undefined): string {
  const username = UsernameParam.safeParse(raw);
  if (!username.success) throw new BadRequestError('Invalid username');
  return username.data;
}

export function parseTokenParam(raw: string | undefined): string {
  const token = parseTicker(raw);
  if (token === undefined) throw new BadRequestError('Invalid token');
  return token;
}

/**
 * ISO 8601: a date, or a date and time with `Z` or an offset (never local time), in 2000-2999 (stream
 * IDs are not negative). The pattern alone decides: all it admits parses (Feb 30 rolls over, as in Date).
 */
const ISO_INSTANT =
  '^2\\d{3}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])(T([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,3})?)?(Z|[+-]([01]\\d|2[0-3]):[0-5]\\d))?$';
/** The pattern's longest match: `2999-12-31T23:59:59.999+23:59`. */
const ISO_INSTANT_MAX_LENGTH = 29;
export const instant = (description: string) =>
  z
    .string()
    .max(ISO_INSTANT_MAX_LENGTH)
    .regex(new RegExp(ISO_INSTANT))
    .optional()
    .meta({ description, override: { type: 'string', format: 'date-time', pattern: ISO_INSTANT, maxLength: ISO_INSTANT_MAX_LENGTH } });

/** The history routes' query. */
export const HistoryQuerySchema = z.object({
  from: instant('Start of the range (ISO 8601: a date, or a date and time with Z or an offset). Default: 24 h before `to`.'),
  to: instant(
    'End of the range. Default: the latest refresh. A range reaching beyond retention (HISTORY_DAYS) answers with what exists; `from` after `to` is a 400.',
  ),
  interval: z.enum(HISTORY_INTERVALS).optional().meta({
    description:
      '`30m` (default): every refresh, at its cachedAt. `1h`, `4h`, `1d`: buckets aligned to UTC, counts summed, at most 1,000 points (the newest).',
  }),
});
export const HistoryPathSchema = TokenPathSchema;

/** `?at=` of the list snapshots. */
export const AtQuerySchema = z.object({
  at: instant('An instant: answer the snapshot that was current then, with its own cachedAt. Without it, the current snapshot.'),
});

/** `?window=` of the trending lists: the windows that exist; which are served is TRENDING_WINDOWS. */
export const WindowQuerySchema = z.object({
  window: z
    .enum(TRENDING_WINDOWS)
    .optional()
    .meta({
      description:
        'The window the mentions are counted over: 1h, 4h, 24h, 7d or 30d; only the windows the operator configures (TRENDING_WINDOWS) are served, ' +
        'any other is a 400 naming them. Without it, the 24 h list (the same bytes as `window=24h`). Each window is a snapshot of its own, ' +
        'with its own cachedAt, ETag, history (`at`) and stream topic (`trending@1h`).',
      // What no parameter means; a client that fills parameters in (the /docs page's try-it) asks for the one window always served.
      default: '24h',
    }),
});

/** The trending lists' query: `at` and `window`. */
export const ListQuerySchema = AtQuerySchema.extend(WindowQuerySchema.shape);

/** `?window=`: a configured window, 24h when absent; 400 naming the configured ones otherwise. */
export function parseWindow(raw: string | string[] | undefined, configured: readonly TrendingWindow[]): TrendingWindow {
  if (raw === undefined) return DEFAULT_WINDOW;
  const window = WindowQuerySchema.shape.window.safeParse(raw);
  if (!window.success || window.data === undefined || !configured.includes(window.data)) {
    throw new BadRequestError(`${INVALID_WINDOW}: the configured windows are ${configured.join(', ')}`);
  }
  return window.data;
}
export const INVALID_WINDOW = 'Invalid query parameter: window';

export interface HistoryQuery {
  interval: Interval;
  /** Absent: the default range, the 24 h up to the latest refresh. */
  fromMs: number | undefined;
  toMs: number | undefined;
}

/** An ISO instant in ms, undefined when absent; 400 naming the parameter when malformed. */
export function parseInstant(raw: string | string[] | undefined, name: string): number | undefined {
  const parsed = HistoryQuerySchema.shape.from.safeParse(raw);
  const ms = parsed.success && parsed.data !== undefined ? Date.parse(parsed.data) : raw === undefined ? undefined : NaN;
  if (ms !== undefined && Number.isNaN(ms)) throw new BadRequestError(`Invalid query parameter: ${name}`);
  return ms;
}

/** `?from=&to=&interval=` of the history routes: interval 30m by default, from not after to. */
export function parseHistoryQuery(query: ParsedUrlQuery): HistoryQuery {
  const interval = HistoryQuerySchema.shape.interval.safeParse(query.interval);
  if (!interval.success) throw new BadRequestError('Invalid query parameter: interval');
  const fromMs = parseInstant(query.from, 'from');
  const toMs = parseInstant(query.to, 'to');
  if (fromMs !== undefined && toMs !== undefined && fromMs > toMs) throw new BadRequestError('Invalid range: from is after to');
  return { interval: interval.data ?? '30m', fromMs, toMs };
}
