/**
 * INDEX_PROVIDER and the real providers' variables (docs/providers.md), parsed with the rest of
 * the configuration by loadConfig(). Only `composite` needs any of them; with `index` (the
 * default) they are ignored and the worker speaks docs/index-api.md.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { oneOf, problem, url, variable, wholeNumber, type Env } from './config-vars.js';

export type IndexProvider = 'index' | 'composite';
export type CoinGeckoPlan = 'demo' | 'pro';

export interface ProvidersConfig {
  readonly elfa: {
    /** ELFA_API_KEY: sent as `x-elfa-api-key`; never logged. Required with composite. */
    readonly apiKey: string;
    /** ELFA_API_URL: default https://api.elfa.ai (paths `/v2/...` are relative to it). */
    readonly baseUrl: string;
    /** ELFA_MONTHLY_CREDITS: the month's credit budget; unset, the key's own status says. */
    readonly monthlyCredits: number | undefined;
    /** ELFA_DAILY_CREDITS: a day's credit budget (a prepaid key has no monthly one); not with ELFA_MONTHLY_CREDITS. */
    readonly dailyCredits: number | undefined;
  };
  readonly coingecko: {
    /** COINGECKO_API_KEY: optional; keyless calls share the host's per-IP limit. */
    readonly apiKey: string | undefined;
    /** COINGECKO_PLAN: `demo` (default) or `pro`; picks the base URL and the key header. */
    readonly plan: CoinGeckoPlan;
    /** COINGECKO_API_URL: overrides the plan's base URL, version included (`.../api/v3`). */
    readonly baseUrl: string;
    /** COINGECKO_IDS: `SYM:coin-id,...`, tickers pinned to a coin (upper-case ticker -> id). */
    readonly pins: Readonly<Record<string, string>>;
  };
  readonly x: {
    /** X_BEARER_TOKEN: app-only bearer token; never logged. Required with composite. */
    readonly bearerToken: string;
    /** X_API_URL: default https://api.x.com (paths `/2/...` are relative to it). */
    readonly baseUrl: string;
    /** X_QUERY_MAX_LENGTH: the longest search query the plan takes; default 512 (self-serve), 4096 on Enterprise. */
    readonly queryMaxLength: number;
    /** X_REQUESTS_PER_REFRESH: X requests one news refresh may make, lookups included; default 50. */
    readonly requestsPerRefresh: number;
  };
  /** TRACKED_ACCOUNTS: the smart-money index, X usernames as given (comma list or `@file`). */
  readonly trackedAccounts: readonly string[];
}

const X_USERNAME = /^[A-Za-z0-9_]{1,15}$/;

function providerUrl(env: Env, name: string, fallback: string): string {
  return variable(env, name, url(['http:', 'https:'], { hint: '' }), fallback).replace(/\/+$/, '');
}

function required(env: Env, name: string): string {
  return env[name] || (problem(env, `${name}: required with INDEX_PROVIDER=composite`) ?? '');
}

/** A comma list, or `@file` with one username a line (comments and blanks skipped); duplicates once, the last spelling kept. */
const TRACKED_ACCOUNTS = z.string().transform((raw, context) => {
  let text = raw;
  if (raw.startsWith('@')) {
    try {
      text = readFileSync(raw.slice(1), 'utf8');
    } catch (error) {
      context.addIssue({ code: 'custom', message: `cannot read ${raw.slice(1)} (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
      return z.NEVER;
    }
  }
  const names = text
    .split(/[,\n]/)
    .map((entry) => entry.trim().replace(/^@/, ''))
    .filter((entry) => entry !== '' && !entry.startsWith('#'));
  const bad = names.find((name) => !X_USERNAME.test(name));
  if (bad !== undefined) context.addIssue({ code: 'custom', message: `"${bad}" is not an X username (letters, digits, _; at most 15)` });
  else if (names.length === 0) context.addIssue({ code: 'custom', message: 'lists no username' });
  return [...new Map(names.map((name) => [name.toLowerCase(), name])).values()];
});

const PINS = z.string().transform((raw, context) =>
  Object.fromEntries(
    raw.split(',').flatMap((entry) => {
      const match = /^\s*\$?([A-Za-z0-9]{1,20}):([a-z0-9][a-z0-9-]*)\s*$/.exec(entry);
      if (match?.[1] && match[2]) return [[match[1].toUpperCase(), match[2]]];
      context.addIssue({ code: 'custom', message: `must be SYMBOL:coin-id[,SYMBOL:coin-id...], got "${entry.trim()}"`, continue: false });
      return [];
    }),
  ),
);

export function indexProvider(env: Env): IndexProvider {
  return variable(env, 'INDEX_PROVIDER', oneOf<IndexProvider>(['index', 'composite']), 'index');
}

/** The providers' settings with INDEX_PROVIDER=composite, else undefined. */
export function providersConfig(env: Env, provider: IndexProvider): ProvidersConfig | undefined {
  if (provider !== 'composite') return undefined;
  const monthlyCredits = variable(env, 'ELFA_MONTHLY_CREDITS', wholeNumber(3, 100_000_000), undefined);
  const dailyCredits = variable(env, 'ELFA_DAILY_CREDITS', wholeNumber(3, 10_000_000), undefined);
  if (env.ELFA_MONTHLY_CREDITS && env.ELFA_DAILY_CREDITS) problem(env, 'ELFA_DAILY_CREDITS: set it or ELFA_MONTHLY_CREDITS, not both');
  const plan = variable(env, 'COINGECKO_PLAN', oneOf<CoinGeckoPlan>(['demo', 'pro']), 'demo');
  return {
    elfa: {
      apiKey: required(env, 'ELFA_API_KEY'),
      baseUrl: providerUrl(env, 'ELFA_API_URL', 'https://api.elfa.ai'),
      monthlyCredits,
      dailyCredits,
    },
    coingecko: {
      apiKey: env.COINGECKO_API_KEY || undefined,
      plan,
      baseUrl: providerUrl(
        env,
        'COINGECKO_API_URL',
        plan === 'pro' ? 'https://pro-api.coingecko.com/api/v3' : 'https://api.coingecko.com/api/v3',
      ),
      pins: variable(env, 'COINGECKO_IDS', PINS, {}),
    },
    x: {
      bearerToken: required(env, 'X_BEARER_TOKEN'),
      baseUrl: providerUrl(env, 'X_API_URL', 'https://api.x.com'),
      // The shortest query must hold one `from:` clause of a 15-character name.
      queryMaxLength: variable(env, 'X_QUERY_MAX_LENGTH', wholeNumber(64, 4096), 512),
      requestsPerRefresh: variable(env, 'X_REQUESTS_PER_REFRESH', wholeNumber(1, 10_000), 50),
    },
    trackedAccounts: env.TRACKED_ACCOUNTS
      ? variable(env, 'TRACKED_ACCOUNTS', TRACKED_ACCOUNTS, [])
      : (problem(env, 'TRACKED_ACCOUNTS: required with INDEX_PROVIDER=composite') ?? []),
  };
}
