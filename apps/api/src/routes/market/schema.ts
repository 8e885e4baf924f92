/** Request parsing for the market routes: every invalid value becomes a 400 with a precise message. */
import type { ParsedUrlQuery } from 'node:querystring';
import { BadRequestError } from '../../../../../shared/errors.js';
import { parsePositiveInteger, parseTicker, parseUsername } from '../../../../../shared/identifiers.js';
import { INTERVALS, type Interval } from '../../market/history-buckets.js';
import type { HistoryQuery } from '../../market/history-service.js';
import { TOPICS, type Topic } from '../../stream/stream-hub.js';

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

/** ISO 8601 as clients write it: a date, or a date and time with `Z` or an offset (never local time). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** An ISO instant in ms, undefined when absent; 400 naming the parameter when malformed. */
export function parseInstant(raw: string | string[] | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const ms = typeof raw === 'string' && ISO_INSTANT.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(ms)) throw new BadRequestError(`Invalid query parameter: ${name}`);
  return ms;
}

/** `?from=&to=&interval=` of the history routes: interval 30m by default, from not after to. */
export function parseHistoryQuery(query: ParsedUrlQuery): HistoryQuery {
  const interval = query.interval ?? '30m';
  if (typeof interval !== 'string' || !Object.hasOwn(INTERVALS, interval)) {
    throw new BadRequestError('Invalid query parameter: interval');
  }
  const fromMs = parseInstant(query.from, 'from');
  const toMs = parseInstant(query.to, 'to');
  if (fromMs !== undefined && toMs !== undefined && fromMs > toMs) throw new BadRequestError('Invalid range: from is after to');
  return { interval: interval as Interval, fromMs, toMs };
}

/** `?topics=trending,news`: the event kinds to send, all when absent; an unknown one is a 400. */
export function parseTopics(raw: string | string[] | undefined): ReadonlySet<Topic> {
  if (raw === undefined) return new Set(TOPICS);
  const names = typeof raw === 'string' ? raw.split(',').map((name) => name.trim()) : [''];
  if (!names.every((name) => (TOPICS as readonly string[]).includes(name))) {
    throw new BadRequestError('Invalid query parameter: topics');
  }
  return new Set(names as Topic[]);
}

/** `Last-Event-ID`: an event id we sent (cachedAt in ms). Anything else starts a fresh stream, as a first connection does. */
export function parseLastEventId(raw: string | undefined): number | undefined {
  return raw !== undefined && /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
}
