/** Request parsing for the market routes: every invalid value becomes a 400 with a precise message. */
import type { ParsedUrlQuery } from 'node:querystring';
import { z } from 'zod';
import { BadRequestError } from '../../../../../shared/errors.js';
import { positiveIntegerQuery, TickerParam, UsernameParam } from '../../../../../shared/identifiers.js';

export const NEWS_DEFAULT_LIMIT = 20;
export const NEWS_MAX_LIMIT = 50;

/** GET /api/market/news's query; the document is generated from it. */
export const NewsQuerySchema = z.object({
  limit: positiveIntegerQuery(NEWS_DEFAULT_LIMIT).meta({
    description:
      'Number of items to return: a positive whole number in decimal digits, default 20, maximum 50 ' +
      '(a larger value is clamped to 50, and the pagination echo says 50).',
  }),
  page: positiveIntegerQuery(1).meta({ description: 'Page number: a positive whole number in decimal digits, default 1.' }),
});
export const UsernamePathSchema = z.object({ username: UsernameParam });
export const TokenPathSchema = z.object({ token: TickerParam });

export interface NewsQuery {
  page: number;
  limit: number;
}

/** D6: defaults 1 and 20; a limit above 50 is clamped (and echoed as 50). */
export function parseNewsQuery(query: ParsedUrlQuery): NewsQuery {
  const limit = NewsQuerySchema.shape.limit.safeParse(query.limit);
  if (!limit.success) throw new BadRequestError('Invalid query parameter: limit');
  const page = NewsQuerySchema.shape.page.safeParse(query.page);
  if (!page.success) throw new BadRequestError('Invalid query parameter: page');
  return { page: page.data ?? 1, limit: Math.min(limit.data ?? NEWS_DEFAULT_LIMIT, NEWS_MAX_LIMIT) };
}

export function parseUsernameParam(raw: string | undefined): string {
  const username = UsernameParam.safeParse(raw);
  if (!username.success) throw new BadRequestError('Invalid username');
  return username.data;
}

export function parseTokenParam(raw: string | undefined): string {
  const token = TickerParam.safeParse(raw);
  if (!token.success) throw new BadRequestError('Invalid token');
  return token.data;
}
