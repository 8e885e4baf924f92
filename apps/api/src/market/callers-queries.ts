/** The callers reads' parameters (docs/decisions.md#callers): schemas for the document, parsers answering each bad value with a 400 naming what is allowed. */
import { z } from 'zod';
import { BadRequestError } from '../../../../shared/errors.js';
import { parseTicker } from '../../../../shared/identifiers.js';
import { CALLS_WINDOWS, LEADERBOARD_SORTS, type CallsWindow, type LeaderboardSort } from '../../../../shared/callers/figures.js';
import type { Subject } from '../../../../shared/callers/records.js';
import { instant } from './market-queries.js';

const window = z.enum(CALLS_WINDOWS).optional().meta({ description: 'The last 7 or 30 days. Default 30d.', default: '30d' });
const at = instant(
  'An instant (ISO 8601 with Z or an offset): the figures as the service had them then, from the calls and breakouts recorded by then. Default: the latest refresh.',
);
const EVM = /^0x[0-9a-fA-F]{40}$/;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export const TokenCallersPathSchema = z.object({
  token: z
    .string()
    .max(44)
    .regex(/^(\$?[A-Za-z0-9]{1,20}|0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/)
    .meta({
      description: 'A ticker (1-20 of [A-Za-z0-9] after an optional $, any case) or a contract address (EVM 0x + 40 hex, or base58).',
    }),
});
export const TokenCallersQuerySchema = z.object({ window, at });
export const CallersQuerySchema = z.object({
  window,
  sort: z.enum(LEADERBOARD_SORTS).optional().meta({
    description: '`hitRate` (default; then hits, then calls), `lead` (median lead, longest first) or `calls` (most first); then username.',
    default: 'hitRate',
  }),
  minCalls: z
    .string()
    .max(4)
    .regex(/^\d{1,4}$/)
    .optional()
    .meta({ description: 'The fewest calls an account needs to be listed: 0 to 9999. Default 3.', default: '3' }),
  at,
});

type Raw = string | string[] | undefined;

export function parseCallsWindow(raw: Raw): CallsWindow {
  if (raw === undefined) return '30d';
  if (typeof raw !== 'string' || !(CALLS_WINDOWS as readonly string[]).includes(raw))
    throw new BadRequestError(`Invalid query parameter: window (allowed: ${CALLS_WINDOWS.join(', ')})`);
  return raw as CallsWindow;
}

export function parseLeaderboardSort(raw: Raw): LeaderboardSort {
  if (raw === undefined) return 'hitRate';
  if (typeof raw !== 'string' || !(LEADERBOARD_SORTS as readonly string[]).includes(raw))
    throw new BadRequestError(`Invalid query parameter: sort (allowed: ${LEADERBOARD_SORTS.join(', ')})`);
  return raw as LeaderboardSort;
}

export function parseMinCalls(raw: Raw): number {
  if (raw === undefined) return 3;
  if (typeof raw !== 'string' || !/^\d{1,4}$/.test(raw))
    throw new BadRequestError('Invalid query parameter: minCalls (a whole number from 0 to 9999)');
  return Number(raw);
}

/** A ticker (upper case) or an address (EVM lower case, base58 as written). */
export function parseCallersSubject(raw: string | undefined): { subject: Subject; id: string } {
  if (raw !== undefined && EVM.test(raw)) return { subject: 'ca', id: raw.toLowerCase() };
  if (raw !== undefined && raw.length >= 32 && BASE58.test(raw)) return { subject: 'ca', id: raw };
  const ticker = parseTicker(raw);
  if (ticker === undefined) throw new BadRequestError('Invalid token (a ticker of 1-20 of [A-Za-z0-9] or a contract address)');
  return { subject: 'token', id: ticker };
}
