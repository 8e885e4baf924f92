/**
 * The callers' variables (docs/decisions.md#callers), parsed with the rest of the configuration by
 * loadConfig(): what a call, a breakout and a hit are.
 */
import { z } from 'zod';
import { got, integer, variable, type Env } from '../config-vars.js';
import { DAY_MS, HOUR_MS } from '../durations.js';

export interface CallersConfig {
  /** CALLS_QUIET_DAYS: days an account (or the trending list) must go without a token before it counts again. Default 7. */
  readonly quietMs: number;
  /** CALLS_TOP_N: a token breaks out when it enters this many first places of the 24 h trending list. Default 10. */
  readonly topN: number;
  /** CALLS_HORIZON: how long after a call its breakout still makes it a hit, in hours (`72h`). Default 72h. */
  readonly horizonMs: number;
}

export const DEFAULT_CALLERS: CallersConfig = Object.freeze({ quietMs: 7 * DAY_MS, topN: 10, horizonMs: 72 * HOUR_MS });

const HORIZON = (() => {
  const must = got('must be whole hours from 1h to 720h such as 72h');
  return z
    .string()
    .regex(/^\d+h$/, must)
    .transform((raw) => Number(raw.slice(0, -1)))
    .pipe(z.number().min(1, must).max(720, must))
    .transform((hours) => hours * HOUR_MS);
})();

export function callersConfig(env: Env): CallersConfig {
  return Object.freeze({
    quietMs: integer(env, 'CALLS_QUIET_DAYS', 7, 1, 30) * DAY_MS,
    topN: integer(env, 'CALLS_TOP_N', 10, 1, 100),
    horizonMs: variable(env, 'CALLS_HORIZON', HORIZON, DEFAULT_CALLERS.horizonMs),
  });
}
