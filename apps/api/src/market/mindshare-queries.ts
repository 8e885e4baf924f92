/** The mindshare reads' query schemas and parsers (docs/decisions.md#d20): each bad value a 400 naming it. */
import { z } from 'zod';
import { BadRequestError } from '../../../../shared/errors.js';
import { MINDSHARE_INTERVALS, MINDSHARE_WINDOWS, type MindshareInterval, type MindshareWindow } from '../../../../shared/mindshare.js';

const window = z
  .enum(MINDSHARE_WINDOWS)
  .optional()
  .meta({ description: 'The window: the last 1, 24, 168 or 720 UTC hours, the current one included. Default 24h.', default: '24h' });

export const MindshareQuerySchema = z.object({ window });
export const TokenMindshareQuerySchema = z.object({
  window,
  interval: z
    .enum(MINDSHARE_INTERVALS)
    .optional()
    .meta({ description: 'The bucket of each point: 1h (default), 4h or 1d, aligned to UTC.' }),
});

export function parseMindshareWindow(raw: string | string[] | undefined): MindshareWindow {
  const parsed = window.safeParse(raw);
  if (!parsed.success) throw new BadRequestError('Invalid query parameter: window');
  return parsed.data ?? '24h';
}

export function parseMindshareInterval(raw: string | string[] | undefined): MindshareInterval {
  const parsed = TokenMindshareQuerySchema.shape.interval.safeParse(raw);
  if (!parsed.success) throw new BadRequestError('Invalid query parameter: interval');
  return parsed.data ?? '1h';
}
