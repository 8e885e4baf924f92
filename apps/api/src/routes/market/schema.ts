/**
 * GET /api/market/stream's request schema. The cached reads' schemas are in
 * market/market-queries.ts, named by the table of reads (market/reads.ts).
 */
import { z } from 'zod';
import { BadRequestError } from '../../../../../shared/errors.js';
import { activeSnapshots } from '../../../../../shared/snapshot-kinds.js';
import type { TrendingWindow } from '../../../../../shared/trending-windows.js';
import { TOPICS, type Topic } from '../../stream/stream-hub.js';

/** GET /api/market/stream's query and header. */
export const StreamQuerySchema = z.object({
  // At most as long as every kind named once: a list that repeats kinds beyond that is refused.
  topics: z
    .string()
    .max(TOPICS.join(',').length)
    .regex(new RegExp(`^(${TOPICS.join('|')})(,(${TOPICS.join('|')}))*$`))
    .optional()
    .meta({
      description: `Comma-separated event kinds to receive: ${TOPICS.join(', ')}. Default: all. At most ${TOPICS.join(',').length} characters (every kind once).`,
    }),
});
export const StreamHeaderSchema = z.object({
  'last-event-id': z
    .string()
    .max(15)
    .regex(/^\d{1,15}$/)
    .optional()
    .meta({
      description:
        'The id of the last event received: resume after it (up to STREAM_RESUME_MAX_EVENTS events of each kind; further behind, its current state marked `"gap": true`).',
    }),
});

/**
 * `?topics=trending,news`: the event kinds to send, all those served when absent; an unknown one
 * is a 400, and so is a window not configured (`trending@30d`), naming the configured windows as
 * the lists' `?window=` does.
 */
export function parseTopics(raw: string | string[] | undefined, windows: readonly TrendingWindow[]): ReadonlySet<Topic> {
  const topics = StreamQuerySchema.shape.topics.safeParse(raw);
  if (!topics.success) throw new BadRequestError('Invalid query parameter: topics');
  const served = activeSnapshots(windows);
  const asked = topics.data === undefined ? served : (topics.data.split(',') as Topic[]);
  if (!asked.every((topic) => served.includes(topic)))
    throw new BadRequestError(`Invalid query parameter: topics: the configured windows are ${windows.join(', ')}`);
  return new Set(asked);
}

/** `Last-Event-ID`: an event id we sent (cachedAt in ms). Anything else starts a fresh stream, as a first connection does. */
export function parseLastEventId(raw: string | undefined): number | undefined {
  const parsed = StreamHeaderSchema.shape['last-event-id'].safeParse(raw?.trim());
  return parsed.success && parsed.data !== undefined ? Number(parsed.data) : undefined;
}
