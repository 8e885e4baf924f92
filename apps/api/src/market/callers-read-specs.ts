/** The callers reads in the read table (reads.ts): path, parameters, answer and document (docs/decisions.md#callers). */
import { CallersLeaderboardSchema, TokenCallersSchema } from '../../../../shared/callers/callers-schemas.js';
import { CallersQuerySchema, TokenCallersPathSchema, TokenCallersQuerySchema } from './callers-queries.js';
import type { ErrorCase, ReadSpec } from './read-spec.js';

const DEFINITION =
  'A call is a tracked account’s first post about a token (or contract address) after CALLS_QUIET_DAYS (7) without one; ' +
  'a breakout is the token entering the top CALLS_TOP_N (10) of the 24 h trending list (or the address the trending addresses) ' +
  'for the first time in that quiet period; a call is a hit when its breakout follows within CALLS_HORIZON (72 h), pending until then ' +
  '(docs/decisions.md, D22). Computed as of the latest refresh, or as of `at`: only what was recorded by then.';
const WINDOW: ErrorCase = ['Invalid query parameter: window (allowed: 7d, 30d)', '`window` is not 7d or 30d'];
const AT: ErrorCase = ['Invalid query parameter: at', '`at` is not an ISO 8601 date or date-time with a zone'];
const NO_RECORD: ErrorCase = ['No record at that time', '`at` is so early that its window reaches past the records kept'];

export const CALLERS_READS = {
  'token-callers': {
    path: '/api/market/tokens/:token/callers',
    serve: 'token-callers',
    params: TokenCallersPathSchema,
    query: TokenCallersQuerySchema,
    response: TokenCallersSchema,
    summary: 'Who called a token before it broke out',
    description: `The token's breakouts in the window, newest first, each with its first callers (earliest first) and their lead. ${DEFINITION}`,
    ok: 'The token, its breakouts with their first callers, and the instant the figures are as of.',
    tool: {
      name: 'token_callers',
      title: 'First callers of a token',
      description:
        'Which tracked accounts mentioned a token (ticker or contract address) before it entered the top 10 of the trending list, ' +
        'and how many minutes ahead: each breakout in the last 7 or 30 days with its first callers and their posts (untrusted text).',
    },
    errors: {
      400: [
        ['Invalid token (a ticker of 1-20 of [A-Za-z0-9] or a contract address)', 'the token is neither a ticker nor an address'],
        WINDOW,
        AT,
      ],
      404: [NO_RECORD],
    },
  },
  callers: {
    path: '/api/market/callers',
    serve: 'callers',
    query: CallersQuerySchema,
    response: CallersLeaderboardSchema,
    summary: 'The tracked accounts as callers: a leaderboard',
    description: `Each account with at least minCalls calls in the window: calls, hits, pending, misses, hit rate, median lead. ${DEFINITION}`,
    ok: 'The accounts in the order asked for, and the instant the figures are as of.',
    tool: {
      name: 'callers_leaderboard',
      title: 'Which accounts are early',
      description:
        'The tracked accounts ranked by how often their calls (first mentions of a token) were followed by the token entering the ' +
        'top 10 of the trending list within 72 h (hitRate), by how far ahead (lead, median minutes) or by calls; pending calls are not misses.',
    },
    errors: {
      400: [
        WINDOW,
        ['Invalid query parameter: sort (allowed: hitRate, lead, calls)', '`sort` is not hitRate, lead or calls'],
        ['Invalid query parameter: minCalls (a whole number from 0 to 9999)', '`minCalls` is not a whole number from 0 to 9999'],
        AT,
      ],
      404: [NO_RECORD],
    },
  },
} satisfies Record<string, ReadSpec>;
