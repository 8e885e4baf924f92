/** The mindshare reads' query schemas and parsers (docs/decisions.md#d20): each bad value a 400 naming it. */
import { z } from 'zod';
import { BadRequestError } from '../../../../shared/errors.js';
import {
  MINDSHARE_INTERVALS,
  MINDSHARE_WINDOWS,
  windowIntervals,
  type MindshareInterval,
  type MindshareWindow,
} from '../../../../shared/mindshare.js';

const window = z
  .enum(MINDSHARE_WINDOWS)
  .optional()
  .meta({
    description:
      'The window, in whole UTC buckets, not rolling (trending’s `1h` is): `1h` is the current UTC hour so far (at 14:01, one minute of posts), ' +
      '`24h` the current UTC hour and the 23 before it, `7d` and `30d` the current UTC day and the 6 or 29 before it. ' +
      '`shareChange` compares with the same number of buckets just before. Default 24h.',
    default: '24h',
  });

export const MindshareQuerySchema = z.object({ window });
export const TokenMindshareQuerySchema = z.object({
  window,
  interval: z.enum(MINDSHARE_INTERVALS).optional().meta({
    description:
      'The bucket of each point, aligned to UTC: 1h (the default), 4h or 1d for the 1h and 24h windows; 1d (the default and only one) for 7d and 30d, which are counted per day.',
  }),
});

const isOneOf =
  <T extends string>(values: readonly T[]) =>
  (raw: unknown): raw is T =>
    typeof raw === 'string' && (values as readonly string[]).includes(raw);
// The schemas above document the parameters; these checks answer them without zod's result
// objects, since the fast path parses both on every read.
const isWindow = isOneOf(MINDSHARE_WINDOWS);
const isInterval = isOneOf(MINDSHARE_INTERVALS);
const ALLOWED_INTERVALS = new Map(MINDSHARE_WINDOWS.map((window) => [window, windowIntervals(window)]));

export function parseMindshareWindow(raw: string | string[] | undefined): MindshareWindow {
  if (raw === undefined) return '24h';
  if (!isWindow(raw)) throw new BadRequestError('Invalid query parameter: window');
  return raw;
}

/** The interval asked for, or the finest the window's buckets answer; one they cannot is a 400 naming those they can. */
export function parseMindshareInterval(raw: string | string[] | undefined, window: MindshareWindow): MindshareInterval {
  if (raw !== undefined && !isInterval(raw)) throw new BadRequestError('Invalid query parameter: interval');
  const allowed = ALLOWED_INTERVALS.get(window)!;
  if (raw === undefined) return allowed[0]!;
  if (!allowed.includes(raw))
    throw new BadRequestError(`Invalid query parameter: interval (window ${window} is counted per day: ${allowed.join(', ')})`);
  return raw;
}
