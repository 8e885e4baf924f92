/**
 * How the callers reads are answered (docs/decisions.md#callers): the token's breakouts, the
 * leaderboard, and the `calls` the username stats gain; each keyed by its parsed input.
 */
import type { ParsedUrlQuery } from 'node:querystring';
import { accountFigures, breakoutsOf, leaderboard, WINDOW_MS, type Known } from '../../../../shared/callers/figures.js';
import type { ReadAnswer } from '../http/representation.js';
import type { CallersService } from './callers-service.js';
import { parseCallersSubject, parseCallsWindow, parseLeaderboardSort, parseMinCalls } from './callers-queries.js';
import { parseInstant } from './market-queries.js';

const isoOf = (known: Known) => new Date(known.atMs).toISOString();
const STATS_WINDOW_MS = WINDOW_MS['30d'];

function tokenCallersInput(params: Readonly<Record<string, string | undefined>>, query: ParsedUrlQuery) {
  const { subject, id } = parseCallersSubject(params.token);
  const window = parseCallsWindow(query.window);
  return { subject, id, window, atMs: parseInstant(query.at, 'at'), key: `token|${subject}|${id}|${window}` };
}

function leaderboardInput(query: ParsedUrlQuery) {
  const window = parseCallsWindow(query.window);
  const sort = parseLeaderboardSort(query.sort);
  const minCalls = parseMinCalls(query.minCalls);
  return { window, sort, minCalls, atMs: parseInstant(query.at, 'at'), key: `board|${window}|${sort}|${minCalls}` };
}

export function callersReads(service: CallersService, horizonMs: number) {
  return {
    tokenCallers: {
      peek(params: Readonly<Record<string, string | undefined>>, query: ParsedUrlQuery): ReadAnswer | undefined {
        const input = tokenCallersInput(params, query);
        return input.atMs === undefined ? service.peek(input.key) : undefined;
      },
      get(params: Readonly<Record<string, string | undefined>>, query: ParsedUrlQuery): Promise<ReadAnswer> {
        const { subject, id, window, atMs, key } = tokenCallersInput(params, query);
        return service.get(key, atMs, WINDOW_MS[window] + horizonMs, (known) => ({
          token: id,
          window,
          breakouts: breakoutsOf(known, subject, id, WINDOW_MS[window]),
          cachedAt: isoOf(known),
        }));
      },
    },
    leaderboard: {
      peek(query: ParsedUrlQuery): ReadAnswer | undefined {
        const input = leaderboardInput(query);
        return input.atMs === undefined ? service.peek(input.key) : undefined;
      },
      get(query: ParsedUrlQuery): Promise<ReadAnswer> {
        const { window, sort, minCalls, atMs, key } = leaderboardInput(query);
        return service.get(key, atMs, WINDOW_MS[window] + horizonMs, (known) => ({
          window,
          sort,
          minCalls,
          data: leaderboard(known, WINDOW_MS[window], sort, minCalls),
          cachedAt: isoOf(known),
        }));
      },
    },
    /** The stats answer with the account's `calls` over 30 days added after the stored fields (the stored body's `cachedAt` kept). */
    statsWithCalls: {
      peek(username: string, stats: ReadAnswer | undefined): ReadAnswer | undefined {
        const held = stats && service.peek(statsKey(username, stats));
        return held && { ...stats, representation: held.representation };
      },
      async get(username: string, stats: ReadAnswer): Promise<ReadAnswer> {
        const answer = await service.get(statsKey(username, stats), undefined, STATS_WINDOW_MS + horizonMs, (known) => {
          const { calls, hits, pending, misses, hitRate, medianLeadMinutes } = accountFigures(known, username, STATS_WINDOW_MS);
          const body = JSON.parse(stats.representation.body.toString('utf8')) as Record<string, unknown>;
          return { ...body, calls: { window: '30d', calls, hits, pending, misses, hitRate, medianLeadMinutes } };
        });
        return { ...stats, representation: answer.representation };
      },
    },
  };
}

function statsKey(username: string, stats: ReadAnswer): string {
  return `stats|${username.toLowerCase()}|${stats.representation.etag}`;
}

export type CallersReads = ReturnType<typeof callersReads>;
