/** Request parsing for the market routes: every invalid value becomes a 400 with a precise message. */
import type { ParsedUrlQuery } from 'node:querystring';
import { BadRequestError } from '../../../../../shared/errors.js';
import { parsePositiveInteger, parseTicker, parseUsername } from '../../../../../shared/identifiers.js';

export const NEWS_DEFAULT_LIMIT = 20;
export const NEWS_MAX_LIMIT = 50;

export interface NewsQuery {
  page: number;
  limit: number;
}

/** D6: defaults 1 and 20; a limit above 50 is clamped (and echoed as 50). */
export function parseNewsQuery(query: ParsedUrlQuery): NewsQuery {
  const limit = parsePositiveInteger(query.limit, NEWS_DEFAULT_LIMIT);
  if (limit === null) throw new BadRequestError('Invalid query parameter: limit');
  const page = parsePositiveInteger(query.page, 1);
  if (page === null) throw new BadRequestError('Invalid query parameter: page');
  return { page, limit: Math.min(limit, NEWS_MAX_LIMIT) };
}

export function parseUsernameParam(raw: string | undefined): string {
  const username = raw === undefined ? null : parseUsername(raw);
  if (username === null) throw new BadRequestError('Invalid username');
  return username;
}

export function parseTokenParam(raw: string | undefined): string {
  const token = raw === undefined ? null : parseTicker(raw);
  if (token === null) throw new BadRequestError('Invalid token');
  return token;
}
