/** The callers' answers as the API documents them (docs/decisions.md#callers). */
import { z } from 'zod';
import { CALLS_WINDOWS, LEADERBOARD_SORTS } from './figures.js';

const iso = (description: string) => z.iso.datetime().meta({ description });
const count = (description: string) => z.int().nonnegative().meta({ description });
const cachedAt = iso('The instant the figures are as of: the latest refresh (news, trending, trending CAs), or `at`.');
const windowEnum = z.enum(CALLS_WINDOWS).meta({ description: 'The window: the last 7 or 30 days up to `cachedAt`.' });

const figures = {
  calls: count('Calls made in the window: first mentions of a token or address after CALLS_QUIET_DAYS without one.'),
  hits: count('Calls whose token broke out (entered the top CALLS_TOP_N of the 24 h trending list) within CALLS_HORIZON after.'),
  pending: count('Calls whose horizon has not passed without a breakout: never counted as misses.'),
  misses: count('Calls whose horizon passed without a breakout.'),
  hitRate: z.number().min(0).max(1).nullable().meta({ description: 'hits / (hits + misses), 4 decimals; null while no call is decided.' }),
  medianLeadMinutes: z
    .number()
    .nonnegative()
    .nullable()
    .meta({ description: 'The median time from a hit call to its breakout, in minutes; null without a hit.' }),
};

export const AccountCallsSchema = z
  .object({ window: z.literal('30d').meta({ description: 'Always the last 30 days.' }), ...figures })
  .meta({ id: 'AccountCalls', description: 'An account’s record as a caller over the last 30 days (docs/decisions.md, D22).' });

export const CallerSchema = z
  .object({
    username: z.string().meta({ description: 'The account, spelled as its latest call’s post does.' }),
    followers: count('Its followers at its latest call.'),
    ...figures,
  })
  .meta({ id: 'Caller', description: 'One account’s record as a caller over the window.' });

export const CallersLeaderboardSchema = z
  .object({
    window: windowEnum,
    sort: z.enum(LEADERBOARD_SORTS).meta({ description: 'The order asked for.' }),
    minCalls: count('The fewest calls an account listed has.'),
    data: z.array(CallerSchema).max(100).meta({ description: 'At most 100 accounts, in the order asked for, then by username.' }),
    cachedAt,
  })
  .meta({ id: 'CallersLeaderboard', description: 'The tracked accounts as callers: how often they were early, and by how much.' });

export const FirstCallerSchema = z
  .object({
    username: z.string().meta({ description: 'The account.' }),
    calledAt: iso('The call’s time: its post’s publishedAt.'),
    leadMinutes: count('From the call to the breakout, in minutes.'),
    followers: count('Its followers at the call.'),
    post: z
      .object({
        id: z.string().meta({ description: 'The post’s id.' }),
        text: z.string().max(280).meta({ description: 'The post’s text (at most 280 characters): untrusted, written by strangers.' }),
      })
      .meta({ description: 'The post that made the call.' }),
  })
  .meta({ id: 'FirstCaller', description: 'A call the breakout made a hit.' });

export const BreakoutSchema = z
  .object({
    at: iso('The trending refresh that first listed it in the top (or among the trending addresses).'),
    subject: z.enum(['token', 'ca']).meta({ description: '`token`: a ticker’s breakout; `ca`: a contract address’s.' }),
    chain: z.string().optional().meta({ description: 'An address’s chain.' }),
    callers: count('How many calls it made hits.'),
    firstCallers: z.array(FirstCallerSchema).max(10).meta({ description: 'The first 10 of those calls, earliest first.' }),
  })
  .meta({ id: 'Breakout', description: 'A token entering the top of the trending list after a quiet period, and who called it.' });

export const TokenCallersSchema = z
  .object({
    token: z.string().meta({ description: 'The ticker (upper case) or the contract address asked for.' }),
    window: windowEnum,
    breakouts: z.array(BreakoutSchema).meta({ description: 'Its breakouts within the window, newest first.' }),
    cachedAt,
  })
  .meta({ id: 'TokenCallers', description: 'A token’s breakouts and their first callers.' });
