/** The stories reads' query schemas and parsers (docs/decisions.md#d23): each bad value a 400 naming it. */
import type { ParsedUrlQuery } from 'node:querystring';
import { z } from 'zod';
import { BadRequestError } from '../../../../shared/errors.js';
import { TickerParam } from '../../../../shared/identifiers.js';
import { STORY_WINDOWS, type StoryWindow } from '../../../../shared/stories.js';
import { AtQuerySchema } from './market-queries.js';

export const STORY_WINDOW_ERROR = 'Invalid query parameter: window (one of 1h, 24h, 7d)';

export const StoriesQuerySchema = z.object({
  window: z.enum(STORY_WINDOWS).optional().meta({
    description: 'The stories whose latest post is within the last 1 hour, 24 hours or 7 days. Default 24h.',
    default: '24h',
  }),
  token: TickerParam.optional().meta({
    description: 'Only the stories about this ticker (in their `tokens`), case-insensitive; an optional leading $ is dropped.',
  }),
  at: AtQuerySchema.shape.at.meta({
    description: 'An instant: the 24 hours’ top ten stories as they were then (from history), with their own cachedAt.',
  }),
});

export const StoryPathSchema = z.object({ id: z.string().min(1).max(64).meta({ description: 'The story’s id.' }) });

export function parseStoriesQuery(query: ParsedUrlQuery): { window: StoryWindow; token: string | undefined } {
  const window = query.window ?? '24h';
  if (typeof window !== 'string' || !(STORY_WINDOWS as readonly string[]).includes(window)) throw new BadRequestError(STORY_WINDOW_ERROR);
  const token = StoriesQuerySchema.shape.token.safeParse(query.token);
  if (!token.success) throw new BadRequestError('Invalid query parameter: token');
  return { window: window as StoryWindow, token: token.data };
}

export function parseStoryId(raw: string | undefined): string {
  const id = StoryPathSchema.shape.id.safeParse(raw);
  if (!id.success) throw new BadRequestError('Invalid story id');
  return id.data;
}
