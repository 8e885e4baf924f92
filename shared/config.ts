/**
 * The one place that reads the environment. Parsed and validated once, synchronously, at
 * start-up, each variable through a zod schema (config-vars.ts); every bad variable is reported
 * at once, and every other module receives the frozen result.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { boolean, ConfigError, got, integer, oneOf, problem, readAll, url, variable, type Env } from './config-vars.js';
import { indexProvider, providersConfig, type IndexProvider, type ProvidersConfig } from './provider-config.js';
import { DEFAULT_WINDOW, TRENDING_WINDOWS_VAR, type TrendingWindow } from './trending-windows.js';
import { alertsConfig, type AlertsConfig } from './alerts/alerts-config.js';
import { PAIRLIST_SYMBOLS_VAR } from './pairlist-config.js';
import { callersConfig, type CallersConfig } from './callers/callers-config.js';

export type NodeEnv = 'development' | 'production' | 'test';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  /** NODE_ENV: `production` makes JWT_SECRET, REDIS_URL (or REDIS_SENTINELS or REDIS_CLUSTER_NODES) and INDEX_API_URL mandatory. Default `development`. */
  readonly nodeEnv: NodeEnv;
  /** PORT: where the API listens. Default 3000. */
  readonly port: number;
  /** REDIS_URL: `redis://` or `rediss://` (TLS). Default `redis://127.0.0.1:6379` outside production. */
  readonly redisUrl: string;
  /**
   * REDIS_SENTINELS (`host:port,...`) and REDIS_SENTINEL_MASTER (the master's name): high
   * availability through Redis Sentinel, for every connection of every role. The data nodes'
   * credentials and TLS: REDIS_USERNAME, REDIS_PASSWORD, REDIS_TLS (`true`); the sentinels' own:
   * REDIS_SENTINEL_USERNAME, REDIS_SENTINEL_PASSWORD, REDIS_SENTINEL_TLS. REDIS_TLS_INSECURE
   * applies to both. Unset: the single node of REDIS_URL. The two forms exclude each other.
   */
  readonly redisSentinel: SentinelConfig | undefined;
  /**
   * REDIS_CLUSTER_NODES (`host:port,...`, seed nodes: the client learns the rest),
   * REDIS_CLUSTER_PASSWORD (optional, every node's AUTH) and REDIS_CLUSTER_TLS (`true`: TLS to
   * every node, as `rediss://` does for REDIS_URL; REDIS_TLS_INSECURE applies too): Redis
   * Cluster, for every connection of every role (docs/redis-cluster.md). Excludes REDIS_URL and
   * REDIS_SENTINELS.
   */
  readonly redisCluster: ClusterConfig | undefined;
  /** REDIS_TLS_INSECURE: accept the self-signed certificates of Heroku-style `rediss://` hosts. Default false. */
  readonly redisTlsInsecure: boolean;
  /**
   * REDIS_KEY_PREFIX: the first part of every key, channel and BullMQ queue name
   * (shared/keyspace.ts), so deployments (or test suites) can share one Redis. Letters, digits,
   * `.`, `_` and `-`. Default `ms`: changing it orphans what Redis holds under the old prefix.
   */
  readonly redisKeyPrefix: string;
  /** JWT_SECRET: HS256 key, at least 32 bytes. Outside production a random one is made per run. */
  readonly jwtSecret: string;
  /** True when JWT_SECRET was not given and a random per-run secret was generated. */
  readonly jwtSecretGenerated: boolean;
  /** JWT_ISSUER: the `iss` claim. Default `market-signals`. */
  readonly jwtIssuer: string;
  /** INDEX_API_URL: base address of the upstream index. Default the local simulator, http://127.0.0.1:4010. */
  readonly indexApiUrl: string;
  /** INDEX_API_KEY: sent as X-Api-Key to the upstream; never logged. */
  readonly indexApiKey: string | undefined;
  /**
   * INDEX_RATE_LIMIT: upstream stats lookups per minute, shared by every worker process
   * (BullMQ's queue limiter, kept in Redis). Providers meter calls: set it to the plan's rate.
   * Default 600.
   */
  readonly indexRateLimitPerMinute: number;
  /** LOG_LEVEL: pino level. Default `info` (`warn` under test). */
  readonly logLevel: LogLevel;
  /** WEB_CONCURRENCY: API processes per dyno (node:cluster). Default 1. */
  readonly webConcurrency: number;
  /** TRUST_PROXY: take the client address from X-Forwarded-For (one proxy hop). Default false. */
  readonly trustProxy: boolean;
  /**
   * IPV6_SUBNET_PREFIX: the per-address limits (login failures, stats misses) count an IPv6
   * client by its network of this many bits, since one host usually holds a whole /64; an
   * IPv4-mapped address counts as its IPv4 address. 1 to 128 (128: every address apart). Default 64.
   */
  readonly ipv6SubnetPrefix: number;
  /**
   * REFRESH_INTERVAL: how often the worker refreshes the shared snapshots, and so how long
   * clients may cache them: `30m` (the spec's, the default), `1m`, `90s`, `1h`. At least 1 s.
   */
  readonly refreshIntervalMs: number;
  /** STATS_MISS_BUDGET: stats misses (upstream lookups) each client address may cause per 10 minutes. Default 60. */
  readonly statsMissBudget: number;
  /**
   * API_KEY_STATS_MISS_BUDGET: stats misses each API key may cause per 10 minutes, counted per
   * key (not per address) and shared by every replica. Larger than the anonymous budget: a keyed
   * client is known and can be revoked. Default 600.
   */
  readonly apiKeyStatsMissBudget: number;
  /**
   * STATS_MISS_CEILING: stats misses every client together may send to the worker per minute,
   * across every API process (issue 38 item 4); one more is answered 503 with Retry-After at
   * once. Half the default INDEX_RATE_LIMIT, so the worker keeps up and a miss waits seconds. Default 300.
   */
  readonly statsMissCeilingPerMinute: number;
  /**
   * STATS_QUEUE_MAX: stats lookups that may wait in the queue; a miss beyond it is answered 503
   * with Retry-After at once, not queued (it could only wait out the API's 9 s). Default 50.
   */
  readonly statsQueueMaxWaiting: number;
  /**
   * METRICS_TOKEN: when set (at least 16 characters), GET /metrics answers only
   * `Authorization: Bearer <METRICS_TOKEN>` (what Prometheus sends with
   * `authorization.credentials`). Unset: /metrics is public.
   */
  readonly metricsToken: string | undefined;
  /** MAX_CONNECTIONS: open connections per API process; one more is answered 503. Default 4096. */
  readonly maxConnections: number;
  /**
   * MAX_CONNECTIONS_PER_ADDRESS: open connections per API process from one client address; one
   * more is answered 503. Not applied with TRUST_PROXY (every connection then comes from the
   * proxy, which limits its clients itself). Default 256.
   */
  readonly maxConnectionsPerAddress: number;
  /**
   * WRITE_TIMEOUT: a response whose client takes none of its bytes for this long is cut (a slow
   * reader that keeps taking some is not). Default 30s.
   */
  readonly writeTimeoutMs: number;
  /**
   * HISTORY_DAYS: how many days of history (time series, past snapshots, stream events) the
   * worker keeps, trimmed as it writes; 0 turns history off. Default 30.
   */
  readonly historyDays: number;
  /**
   * STREAM_MAX_CLIENTS: open `/api/market/stream` connections per API process; one more is
   * answered 503. Each also counts against MAX_CONNECTIONS, so the default, 2048, leaves half
   * of the default sockets to ordinary reads.
   */
  readonly streamMaxClients: number;
  /** STREAM_MAX_CLIENTS_PER_ADDRESS: `/api/market/stream` connections per API process from one client address (the one TRUST_PROXY gives). Default 32. */
  readonly streamMaxClientsPerAddress: number;
  /**
   * STREAM_RESUME_MAX_EVENTS: the most events of one topic a `/api/market/stream` resume
   * (`Last-Event-ID`) replays; a client further behind gets each topic's current state once,
   * marked `"gap":true`. Default 10 (five hours at the default REFRESH_INTERVAL).
   */
  readonly streamResumeMaxEvents: number;
  /**
   * LOGIN_MAX_IN_FLIGHT_PER_ADDRESS: logins one client address (the socket's without TRUST_PROXY;
   * an IPv6 client by its network) may have being checked at once per API process; one more is
   * answered 429 at once, so one address cannot fill the argon2 queue. Default 2.
   */
  readonly loginMaxInFlightPerAddress: number;
  /**
   * MCP_ALLOWED_ORIGINS: the browser origins (`https://app.example.com`, comma-separated) whose
   * pages may call POST /mcp. A request without Origin (agents, IDEs, curl) is always served; any
   * other Origin, `null` included, is answered 403 (the MCP transport's defence against DNS
   * rebinding). Default none.
   */
  readonly mcpAllowedOrigins: readonly string[];
  /** MCP_TIMEOUT: an /mcp request not answered within this gets a JSON-RPC "Request timed out" error. Default 15s. */
  readonly mcpTimeoutMs: number;
  /** DEMO_MODE: seed the demo user at start (set by `npm start` only). Default false. */
  readonly demoMode: boolean;
  /**
   * INDEX_PROVIDER: `index` (default) speaks docs/index-api.md (the simulator or a compatible
   * index); `composite` combines Elfa, CoinGecko and X (docs/providers.md).
   */
  readonly indexProvider: IndexProvider;
  /** The providers' variables (shared/provider-config.ts); set only with INDEX_PROVIDER=composite. */
  readonly providers: ProvidersConfig | undefined;
  /**
   * TRENDING_WINDOWS: the windows the trending lists are refreshed and served for (`?window=`),
   * comma-separated from 1h, 4h, 24h, 7d, 30d; 24h (the answer without `window`) always
   * included. Each other window is a snapshot of its own: with INDEX_PROVIDER=composite, its
   * own Elfa credits each refresh. Default `24h`.
   */
  readonly trendingWindows: readonly TrendingWindow[];
  /** The ALERTS_* variables (shared/alerts/alerts-config.ts). */
  readonly alerts: AlertsConfig;
  /** PAIRLIST_SYMBOLS: `TICKER=BASE,...`, the base an exchange trades a ticker as in GET /api/market/pairlist (shared/pairlist-config.ts). Default none. */
  readonly pairlistSymbols: Readonly<Record<string, string>>;
  /** The CALLS_* variables (shared/callers/callers-config.ts): calls, breakouts and hits (docs/decisions.md#callers). */
  readonly callers: CallersConfig;
}

export type SentinelConfig = Readonly<NonNullable<ReturnType<typeof sentinel>>>;
export type ClusterConfig = Readonly<NonNullable<ReturnType<typeof cluster>>>;

export { ConfigError };

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** An address; no fallback (production) makes it required. */
function address(env: Env, name: string, fallback: string | undefined, schema: z.ZodType<string, string>): string {
  if (!env[name] && fallback === undefined) return problem(env, `${name}: required when NODE_ENV=production`) ?? '';
  return variable(env, name, schema, fallback) ?? '';
}

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;

function duration(env: Env, name: string, fallbackMs: number): number {
  const must = got('must be a duration from 1s to 24h such as 30m, 90s or 1h');
  const schema = z
    .string()
    .regex(/^\d+[smh]$/, must)
    .transform((raw) => Number(raw.slice(0, -1)) * UNIT_MS[raw.slice(-1) as keyof typeof UNIT_MS])
    .pipe(
      z
        .number()
        .min(1000, must)
        .max(24 * 3_600_000, must),
    );
  return variable(env, name, schema, fallbackMs);
}

/** `host:port[,host:port...]` (IPv6 hosts in brackets), as REDIS_SENTINELS and REDIS_CLUSTER_NODES take it. */
const HOST_PORTS = z.string().transform((list, context) =>
  list.split(',').flatMap((entry) => {
    const match = /^\s*([^\s:]+|\[[0-9a-fA-F:]+\]):(\d{1,5})\s*$/.exec(entry);
    const port = Number(match?.[2]);
    if (match?.[1] && port >= 1 && port <= 65535) return [{ host: match[1].replace(/^\[|\]$/g, ''), port }];
    context.addIssue({ code: 'custom', message: `must be host:port[,host:port...], got "${entry.trim()}"`, continue: false });
    return [];
  }),
);

function cluster(env: Env) {
  const password = env.REDIS_CLUSTER_PASSWORD || undefined;
  if (!env.REDIS_CLUSTER_NODES) {
    if (password || env.REDIS_CLUSTER_TLS) problem(env, 'REDIS_CLUSTER_NODES: required with REDIS_CLUSTER_PASSWORD or REDIS_CLUSTER_TLS');
    return undefined;
  }
  const other = env.REDIS_URL ? 'REDIS_URL' : env.REDIS_SENTINELS ? 'REDIS_SENTINELS' : undefined;
  if (other)
    return problem(
      env,
      `REDIS_CLUSTER_NODES: set exactly one of REDIS_URL (one node), REDIS_SENTINELS (Sentinel) or REDIS_CLUSTER_NODES (Cluster); ${other} is set too`,
    );
  return { nodes: variable(env, 'REDIS_CLUSTER_NODES', HOST_PORTS, []), password, tls: boolean(env, 'REDIS_CLUSTER_TLS') };
}

/** The variables that only Sentinel mode reads: given without REDIS_SENTINELS they would be ignored. */
const SENTINEL_ONLY = [
  'REDIS_SENTINEL_MASTER',
  'REDIS_SENTINEL_PASSWORD',
  'REDIS_SENTINEL_USERNAME',
  'REDIS_SENTINEL_TLS',
  'REDIS_USERNAME',
  'REDIS_PASSWORD',
  'REDIS_TLS',
] as const;

function sentinel(env: Env) {
  const masterName = env.REDIS_SENTINEL_MASTER;
  if (!env.REDIS_SENTINELS) {
    const given = SENTINEL_ONLY.find((name) => env[name]);
    if (given === 'REDIS_SENTINEL_MASTER' || given === 'REDIS_SENTINEL_PASSWORD')
      return problem(env, 'REDIS_SENTINELS: required with REDIS_SENTINEL_MASTER or REDIS_SENTINEL_PASSWORD');
    if (given)
      problem(
        env,
        `${given}: applies to the data nodes behind Sentinel (REDIS_SENTINELS) only; with REDIS_URL put the credentials in the URL (rediss:// for TLS), with REDIS_CLUSTER_NODES use REDIS_CLUSTER_PASSWORD and REDIS_CLUSTER_TLS`,
      );
    return undefined;
  }
  if (env.REDIS_URL) return problem(env, 'REDIS_SENTINELS: set either REDIS_URL (one node) or REDIS_SENTINELS (Sentinel), not both');
  if (!masterName) return problem(env, 'REDIS_SENTINEL_MASTER: required with REDIS_SENTINELS (the name of the monitored master)');
  return {
    sentinels: variable(env, 'REDIS_SENTINELS', HOST_PORTS, []),
    masterName,
    // The sentinels' own ACL user, password and TLS; then the master's and replicas'.
    password: env.REDIS_SENTINEL_PASSWORD || undefined,
    sentinelUsername: env.REDIS_SENTINEL_USERNAME || undefined,
    sentinelTls: boolean(env, 'REDIS_SENTINEL_TLS'),
    nodeUsername: env.REDIS_USERNAME || undefined,
    nodePassword: env.REDIS_PASSWORD || undefined,
    nodeTls: boolean(env, 'REDIS_TLS'),
  };
}

/** Origins as a browser sends them in `Origin`: scheme, host and port, nothing else. */
const ORIGINS = z.string().transform((raw, context) =>
  raw.split(',').flatMap((entry) => {
    if (raw.trim() === '') return [];
    const origin = entry.trim();
    const parsed = URL.parse(origin);
    if (parsed && ['http:', 'https:'].includes(parsed.protocol) && parsed.origin === origin) return [origin];
    context.addIssue({
      code: 'custom',
      message: `must be origins such as https://app.example.com (scheme://host[:port], no path), comma-separated, got "${origin}"`,
      continue: false,
    });
    return [];
  }),
);

/** A bearer token Prometheus sends: long enough not to be guessed, and sendable in a header. */
const METRICS_TOKEN = z.string().regex(/^[\x21-\x7e]{16,}$/, {
  error: (issue) => `must be at least 16 printable characters without spaces, got ${String(issue.input).length} characters`,
});

/** A key prefix that cannot break a hash tag (`{}`) or a key pattern. */
const KEY_PREFIX = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, got('must be 1 to 64 letters, digits, ".", "_" or "-"'));

/** A JWT_SECRET too short to resist guessing. */
const JWT_SECRET = z.string().refine((raw) => Buffer.byteLength(raw) >= 32, {
  error: (issue) => `must be at least 32 bytes, got ${Buffer.byteLength(String(issue.input))}`,
});

/** The upstreams' addresses: in production they carry keys and paid answers, so never over plain http to another machine. */
const UPSTREAM_URLS = ['INDEX_API_URL', 'ELFA_API_URL', 'COINGECKO_API_URL', 'X_API_URL'] as const;
/** This machine, or a single-label name (a container's service on a private network, as docker-compose.yml's `simulator`). */
const LOCAL_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|[a-z0-9-]+)$/i;

/** Records a problem when `name` is an http:// address of another machine (issue 38 item 9); loopback and single-label hosts stay allowed (a local simulator or proxy). */
function refusePlainHttp(env: Env, name: string): void {
  // Unset or not a URL: nothing to refuse here (the variable's own parser says why).
  const parsed = URL.parse(env[name] ?? '');
  if (parsed?.protocol === 'http:' && !LOCAL_HOST.test(parsed.hostname)) {
    problem(
      env,
      `${name}: must be https:// when NODE_ENV=production (plain http:// only to this machine, localhost, 127.x.x.x or [::1], or a single-label private host)`,
    );
  }
}

export function loadConfig(source: Env = process.env): Config {
  return readAll(source, (env) => {
    const nodeEnv = variable(env, 'NODE_ENV', oneOf<NodeEnv>(['development', 'production', 'test']), 'development');
    const production = nodeEnv === 'production';
    const givenSecret = variable(env, 'JWT_SECRET', JWT_SECRET, undefined);
    if (production && !env.JWT_SECRET) problem(env, 'JWT_SECRET: required when NODE_ENV=production (at least 32 bytes)');
    const provider = indexProvider(env);
    if (production) for (const name of UPSTREAM_URLS) refusePlainHttp(env, name);

    return Object.freeze({
      nodeEnv,
      port: integer(env, 'PORT', 3000, 0, 65535),
      redisCluster: cluster(env),
      redisSentinel: sentinel(env),
      // Unused with Sentinel or Cluster (the factory asks the sentinels for the master, or the seed nodes for the slots).
      redisUrl: address(
        env,
        'REDIS_URL',
        production && !env.REDIS_SENTINELS && !env.REDIS_CLUSTER_NODES ? undefined : 'redis://127.0.0.1:6379',
        url(['redis:', 'rediss:']),
      ),
      redisTlsInsecure: boolean(env, 'REDIS_TLS_INSECURE'),
      redisKeyPrefix: variable(env, 'REDIS_KEY_PREFIX', KEY_PREFIX, 'ms'),
      jwtSecret: givenSecret || randomBytes(48).toString('base64url'),
      jwtSecretGenerated: !givenSecret,
      jwtIssuer: env.JWT_ISSUER || 'market-signals',
      indexApiUrl: address(
        env,
        'INDEX_API_URL',
        production && provider === 'index' ? undefined : 'http://127.0.0.1:4010',
        url(['http:', 'https:'], { hint: ' (the key goes in INDEX_API_KEY)' }),
      ),
      indexApiKey: env.INDEX_API_KEY || undefined,
      indexRateLimitPerMinute: integer(env, 'INDEX_RATE_LIMIT', 600, 1, 1_000_000),
      logLevel: variable(env, 'LOG_LEVEL', oneOf(LOG_LEVELS), nodeEnv === 'test' ? 'warn' : 'info'),
      webConcurrency: integer(env, 'WEB_CONCURRENCY', 1, 1, 64),
      trustProxy: boolean(env, 'TRUST_PROXY'),
      ipv6SubnetPrefix: integer(env, 'IPV6_SUBNET_PREFIX', 64, 1, 128),
      refreshIntervalMs: duration(env, 'REFRESH_INTERVAL', 30 * 60_000),
      statsMissBudget: integer(env, 'STATS_MISS_BUDGET', 60, 1, 1_000_000),
      apiKeyStatsMissBudget: integer(env, 'API_KEY_STATS_MISS_BUDGET', 600, 1, 1_000_000),
      statsMissCeilingPerMinute: integer(env, 'STATS_MISS_CEILING', 300, 1, 1_000_000),
      statsQueueMaxWaiting: integer(env, 'STATS_QUEUE_MAX', 50, 1, 1_000_000),
      metricsToken: variable(env, 'METRICS_TOKEN', METRICS_TOKEN, undefined),
      maxConnections: integer(env, 'MAX_CONNECTIONS', 4096, 16, 1_000_000),
      maxConnectionsPerAddress: integer(env, 'MAX_CONNECTIONS_PER_ADDRESS', 256, 1, 1_000_000),
      writeTimeoutMs: duration(env, 'WRITE_TIMEOUT', 30_000),
      historyDays: integer(env, 'HISTORY_DAYS', 30, 0, 366),
      streamMaxClients: integer(env, 'STREAM_MAX_CLIENTS', 2048, 0, 1_000_000),
      streamMaxClientsPerAddress: integer(env, 'STREAM_MAX_CLIENTS_PER_ADDRESS', 32, 1, 1_000_000),
      streamResumeMaxEvents: integer(env, 'STREAM_RESUME_MAX_EVENTS', 10, 0, 10_000),
      loginMaxInFlightPerAddress: integer(env, 'LOGIN_MAX_IN_FLIGHT_PER_ADDRESS', 2, 1, 1_000_000),
      mcpAllowedOrigins: variable(env, 'MCP_ALLOWED_ORIGINS', ORIGINS, []),
      mcpTimeoutMs: duration(env, 'MCP_TIMEOUT', 15_000),
      demoMode: boolean(env, 'DEMO_MODE'),
      indexProvider: provider,
      providers: providersConfig(env, provider),
      alerts: alertsConfig(env, production),
      callers: callersConfig(env),
      trendingWindows: variable<readonly TrendingWindow[], readonly TrendingWindow[]>(env, 'TRENDING_WINDOWS', TRENDING_WINDOWS_VAR, [
        DEFAULT_WINDOW,
      ]),
      pairlistSymbols: variable(env, 'PAIRLIST_SYMBOLS', PAIRLIST_SYMBOLS_VAR, {}),
    });
  });
}

/** Entry points call this: bad values end the process with one line for each variable. */
export function loadConfigOrExit(env: Env = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(error.problems.map((line) => `Configuration error: ${line}\n`).join(''));
      process.exit(1);
    }
    throw error;
  }
}
