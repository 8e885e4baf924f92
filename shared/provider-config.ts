/**
 * INDEX_PROVIDER and the real providers' variables (docs/providers.md), parsed with the rest of
 * the configuration by loadConfig(). Only `composite` needs any of them; with `index` (the
 * default) they are ignored and the worker speaks docs/index-api.md as before.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.js';

type Env = Readonly<Record<string, string | undefined>>;

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
  const raw = env[name] || fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name}: not a valid URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(`${name}: must start with http:// or https://`);
  if (parsed.search || parsed.hash) throw new ConfigError(`${name}: must be a base address without ?query or #fragment`);
  return raw.replace(/\/+$/, '');
}

function required(env: Env, name: string): string {
  const value = env[name];
  if (!value) throw new ConfigError(`${name}: required with INDEX_PROVIDER=composite`);
  return value;
}

function trackedAccounts(env: Env): string[] {
  const raw = required(env, 'TRACKED_ACCOUNTS');
  let text = raw;
  if (raw.startsWith('@')) {
    try {
      text = readFileSync(raw.slice(1), 'utf8');
    } catch (error) {
      throw new ConfigError(`TRACKED_ACCOUNTS: cannot read ${raw.slice(1)} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  const names = text
    .split(/[,\n]/)
    .map((entry) => entry.trim().replace(/^@/, ''))
    .filter((entry) => entry !== '' && !entry.startsWith('#'));
  const bad = names.find((name) => !X_USERNAME.test(name));
  if (bad !== undefined) throw new ConfigError(`TRACKED_ACCOUNTS: "${bad}" is not an X username (letters, digits, _; at most 15)`);
  const unique = [...new Map(names.map((name) => [name.toLowerCase(), name])).values()];
  if (unique.length === 0) throw new ConfigError('TRACKED_ACCOUNTS: lists no username');
  return unique;
}

function wholeNumber(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ConfigError(`${name}: must be a whole number from ${min} to ${max}, got "${raw}"`);
  return Number(raw);
}

function pins(env: Env): Record<string, string> {
  const raw = env.COINGECKO_IDS;
  if (!raw) return {};
  const result: Record<string, string> = {};
  for (const entry of raw.split(',')) {
    const match = /^\s*\$?([A-Za-z0-9]{1,20}):([a-z0-9][a-z0-9-]*)\s*$/.exec(entry);
    if (!match?.[1] || !match[2]) throw new ConfigError(`COINGECKO_IDS: must be SYMBOL:coin-id[,SYMBOL:coin-id...], got "${entry.trim()}"`);
    result[match[1].toUpperCase()] = match[2];
  }
  return result;
}

export function indexProvider(env: Env): IndexProvider {
  const raw = env.INDEX_PROVIDER || 'index';
  if (raw !== 'index' && raw !== 'composite') throw new ConfigError(`INDEX_PROVIDER: must be index or composite, got "${raw}"`);
  return raw;
}

/** The providers' settings with INDEX_PROVIDER=composite, else undefined. */
export function providersConfig(env: Env, provider: IndexProvider): ProvidersConfig | undefined {
  if (provider !== 'composite') return undefined;
  const credits = env.ELFA_MONTHLY_CREDITS;
  if (credits !== undefined && credits !== '' && (!/^\d+$/.test(credits) || Number(credits) < 3 || Number(credits) > 100_000_000)) {
    throw new ConfigError(`ELFA_MONTHLY_CREDITS: must be a whole number from 3 to 100000000, got "${credits}"`);
  }
  const daily = env.ELFA_DAILY_CREDITS;
  if (daily !== undefined && daily !== '' && (!/^\d+$/.test(daily) || Number(daily) < 3 || Number(daily) > 10_000_000)) {
    throw new ConfigError(`ELFA_DAILY_CREDITS: must be a whole number from 3 to 10000000, got "${daily}"`);
  }
  if (credits && daily) throw new ConfigError('ELFA_DAILY_CREDITS: set it or ELFA_MONTHLY_CREDITS, not both');
  const plan = env.COINGECKO_PLAN || 'demo';
  if (plan !== 'demo' && plan !== 'pro') throw new ConfigError(`COINGECKO_PLAN: must be demo or pro, got "${plan}"`);
  return {
    elfa: {
      apiKey: required(env, 'ELFA_API_KEY'),
      baseUrl: providerUrl(env, 'ELFA_API_URL', 'https://api.elfa.ai'),
      monthlyCredits: credits ? Number(credits) : undefined,
      dailyCredits: daily ? Number(daily) : undefined,
    },
    coingecko: {
      apiKey: env.COINGECKO_API_KEY || undefined,
      plan,
      baseUrl: providerUrl(
        env,
        'COINGECKO_API_URL',
        plan === 'pro' ? 'https://pro-api.coingecko.com/api/v3' : 'https://api.coingecko.com/api/v3',
      ),
      pins: pins(env),
    },
    x: {
      bearerToken: required(env, 'X_BEARER_TOKEN'),
      baseUrl: providerUrl(env, 'X_API_URL', 'https://api.x.com'),
      // The shortest query must hold one `from:` clause of a 15-character name.
      queryMaxLength: wholeNumber(env, 'X_QUERY_MAX_LENGTH', 512, 64, 4096),
      requestsPerRefresh: wholeNumber(env, 'X_REQUESTS_PER_REFRESH', 50, 1, 10_000),
    },
    trackedAccounts: trackedAccounts(env),
  };
}
