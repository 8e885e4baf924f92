/**
 * The one place that reads the environment. Parsed and validated once, synchronously, at
 * start-up; every other module receives the frozen result.
 */
import { randomBytes } from 'node:crypto';
import { ConfigError } from './config-error.js';
import { indexProvider, providersConfig, type IndexProvider, type ProvidersConfig } from './provider-config.js';
import { parseTrendingWindows, type TrendingWindow } from './trending-windows.js';

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
   * METRICS_TOKEN: when set (at least 16 characters), GET /metrics answers only
   * `Authorization: Bearer <METRICS_TOKEN>` (what Prometheus sends with
   * `authorization.credentials`). Unset: /metrics is public, as before.
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
}

export interface SentinelConfig {
  readonly sentinels: readonly { readonly host: string; readonly port: number }[];
  readonly masterName: string;
  /** The sentinels' own ACL user and password (REDIS_SENTINEL_USERNAME, REDIS_SENTINEL_PASSWORD). */
  readonly password: string | undefined;
  readonly sentinelUsername: string | undefined;
  /** TLS to the sentinels (REDIS_SENTINEL_TLS). */
  readonly sentinelTls: boolean;
  /** The master's and replicas' ACL user and password (REDIS_USERNAME, REDIS_PASSWORD). */
  readonly nodeUsername: string | undefined;
  readonly nodePassword: string | undefined;
  /** TLS to the master and replicas (REDIS_TLS). */
  readonly nodeTls: boolean;
}

export interface ClusterConfig {
  readonly nodes: readonly { readonly host: string; readonly port: number }[];
  readonly password: string | undefined;
  readonly tls: boolean;
}

export { ConfigError };

type Env = Readonly<Record<string, string | undefined>>;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name}: must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function boolean(env: Env, name: string): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(`${name}: must be true or false, got "${env[name]}"`);
}

function url(env: Env, name: string, fallback: string | undefined, protocols: readonly string[]): string {
  const raw = env[name] || fallback;
  if (raw === undefined) throw new ConfigError(`${name}: required when NODE_ENV=production`);
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name}: not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name}: must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

/** A base address that paths are joined to: a query or fragment would be lost (the HTTP client refuses one). */
function baseUrl(raw: string): string {
  const parsed = new URL(raw);
  if (parsed.search || parsed.hash)
    throw new ConfigError('INDEX_API_URL: must be a base address without ?query or #fragment (the key goes in INDEX_API_KEY)');
  return raw;
}

function duration(env: Env, name: string, fallbackMs: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallbackMs;
  const match = /^(\d+)(s|m|h)$/.exec(raw);
  const ms = match ? Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 's' | 'm' | 'h'] : NaN;
  if (!(ms >= 1000 && ms <= 24 * 3_600_000)) {
    throw new ConfigError(`${name}: must be a duration from 1s to 24h such as 30m, 90s or 1h, got "${raw}"`);
  }
  return ms;
}

/** `host:port[,host:port...]` (IPv6 hosts in brackets), as REDIS_SENTINELS and REDIS_CLUSTER_NODES take it. */
function hostPorts(name: string, list: string): { host: string; port: number }[] {
  return list.split(',').map((entry) => {
    const match = /^\s*([^\s:]+|\[[0-9a-fA-F:]+\]):(\d{1,5})\s*$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match?.[1] || port < 1 || port > 65535) {
      throw new ConfigError(`${name}: must be host:port[,host:port...], got "${entry.trim()}"`);
    }
    return { host: match[1].replace(/^\[|\]$/g, ''), port };
  });
}

function cluster(env: Env): ClusterConfig | undefined {
  const list = env.REDIS_CLUSTER_NODES;
  const password = env.REDIS_CLUSTER_PASSWORD || undefined;
  if (!list) {
    if (password || env.REDIS_CLUSTER_TLS)
      throw new ConfigError('REDIS_CLUSTER_NODES: required with REDIS_CLUSTER_PASSWORD or REDIS_CLUSTER_TLS');
    return undefined;
  }
  if (env.REDIS_URL)
    throw new ConfigError(
      'REDIS_CLUSTER_NODES: set exactly one of REDIS_URL (one node), REDIS_SENTINELS (Sentinel) or REDIS_CLUSTER_NODES (Cluster); REDIS_URL is set too',
    );
  if (env.REDIS_SENTINELS)
    throw new ConfigError(
      'REDIS_CLUSTER_NODES: set exactly one of REDIS_URL (one node), REDIS_SENTINELS (Sentinel) or REDIS_CLUSTER_NODES (Cluster); REDIS_SENTINELS is set too',
    );
  return { nodes: hostPorts('REDIS_CLUSTER_NODES', list), password, tls: boolean(env, 'REDIS_CLUSTER_TLS') };
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

function sentinel(env: Env): SentinelConfig | undefined {
  const list = env.REDIS_SENTINELS;
  const masterName = env.REDIS_SENTINEL_MASTER;
  if (!list) {
    const given = SENTINEL_ONLY.find((name) => env[name]);
    if (given === 'REDIS_SENTINEL_MASTER' || given === 'REDIS_SENTINEL_PASSWORD')
      throw new ConfigError('REDIS_SENTINELS: required with REDIS_SENTINEL_MASTER or REDIS_SENTINEL_PASSWORD');
    if (given) {
      throw new ConfigError(
        `${given}: applies to the data nodes behind Sentinel (REDIS_SENTINELS) only; with REDIS_URL put the credentials in the URL (rediss:// for TLS), with REDIS_CLUSTER_NODES use REDIS_CLUSTER_PASSWORD and REDIS_CLUSTER_TLS`,
      );
    }
    return undefined;
  }
  if (env.REDIS_URL) throw new ConfigError('REDIS_SENTINELS: set either REDIS_URL (one node) or REDIS_SENTINELS (Sentinel), not both');
  if (!masterName) throw new ConfigError('REDIS_SENTINEL_MASTER: required with REDIS_SENTINELS (the name of the monitored master)');
  const sentinels = hostPorts('REDIS_SENTINELS', list);
  return {
    sentinels,
    masterName,
    password: env.REDIS_SENTINEL_PASSWORD || undefined,
    sentinelUsername: env.REDIS_SENTINEL_USERNAME || undefined,
    sentinelTls: boolean(env, 'REDIS_SENTINEL_TLS'),
    nodeUsername: env.REDIS_USERNAME || undefined,
    nodePassword: env.REDIS_PASSWORD || undefined,
    nodeTls: boolean(env, 'REDIS_TLS'),
  };
}

/** Origins as a browser sends them in `Origin`: scheme, host and port, nothing else. */
function origins(env: Env, name: string): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((entry) => {
    const origin = entry.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      throw new ConfigError(
        `${name}: must be origins such as https://app.example.com (scheme://host[:port], no path), comma-separated, got "${origin}"`,
      );
    }
    return origin;
  });
}

/** A bearer token Prometheus sends: long enough not to be guessed, and sendable in a header. */
function metricsToken(env: Env): string | undefined {
  const raw = env.METRICS_TOKEN;
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 16 || !/^[\x21-\x7e]+$/.test(raw)) {
    throw new ConfigError(`METRICS_TOKEN: must be at least 16 printable characters without spaces, got ${raw.length} characters`);
  }
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = (env.NODE_ENV || 'development') as NodeEnv;
  if (!['development', 'production', 'test'].includes(nodeEnv)) {
    throw new ConfigError(`NODE_ENV: must be development, production or test, got "${env.NODE_ENV}"`);
  }
  const production = nodeEnv === 'production';

  const logLevel = (env.LOG_LEVEL || (nodeEnv === 'test' ? 'warn' : 'info')) as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }

  const givenSecret = env.JWT_SECRET;
  if (givenSecret !== undefined && givenSecret !== '' && Buffer.byteLength(givenSecret) < 32) {
    throw new ConfigError(`JWT_SECRET: must be at least 32 bytes, got ${Buffer.byteLength(givenSecret)}`);
  }
  if (production && !givenSecret) {
    throw new ConfigError('JWT_SECRET: required when NODE_ENV=production (at least 32 bytes)');
  }

  return Object.freeze({
    nodeEnv,
    port: integer(env, 'PORT', 3000, 0, 65535),
    redisCluster: cluster(env),
    redisSentinel: sentinel(env),
    // Unused with Sentinel or Cluster (the factory asks the sentinels for the master, or the seed nodes for the slots).
    redisUrl: url(env, 'REDIS_URL', production && !env.REDIS_SENTINELS && !env.REDIS_CLUSTER_NODES ? undefined : 'redis://127.0.0.1:6379', [
      'redis:',
      'rediss:',
    ]),
    redisTlsInsecure: boolean(env, 'REDIS_TLS_INSECURE'),
    jwtSecret: givenSecret || randomBytes(48).toString('base64url'),
    jwtSecretGenerated: !givenSecret,
    jwtIssuer: env.JWT_ISSUER || 'market-signals',
    indexApiUrl: baseUrl(
      url(env, 'INDEX_API_URL', production && indexProvider(env) === 'index' ? undefined : 'http://127.0.0.1:4010', ['http:', 'https:']),
    ),
    indexApiKey: env.INDEX_API_KEY || undefined,
    indexRateLimitPerMinute: integer(env, 'INDEX_RATE_LIMIT', 600, 1, 1_000_000),
    logLevel,
    webConcurrency: integer(env, 'WEB_CONCURRENCY', 1, 1, 64),
    trustProxy: boolean(env, 'TRUST_PROXY'),
    ipv6SubnetPrefix: integer(env, 'IPV6_SUBNET_PREFIX', 64, 1, 128),
    refreshIntervalMs: duration(env, 'REFRESH_INTERVAL', 30 * 60_000),
    statsMissBudget: integer(env, 'STATS_MISS_BUDGET', 60, 1, 1_000_000),
    apiKeyStatsMissBudget: integer(env, 'API_KEY_STATS_MISS_BUDGET', 600, 1, 1_000_000),
    metricsToken: metricsToken(env),
    maxConnections: integer(env, 'MAX_CONNECTIONS', 4096, 16, 1_000_000),
    maxConnectionsPerAddress: integer(env, 'MAX_CONNECTIONS_PER_ADDRESS', 256, 1, 1_000_000),
    writeTimeoutMs: duration(env, 'WRITE_TIMEOUT', 30_000),
    historyDays: integer(env, 'HISTORY_DAYS', 30, 0, 366),
    streamMaxClients: integer(env, 'STREAM_MAX_CLIENTS', 2048, 0, 1_000_000),
    streamMaxClientsPerAddress: integer(env, 'STREAM_MAX_CLIENTS_PER_ADDRESS', 32, 1, 1_000_000),
    mcpAllowedOrigins: origins(env, 'MCP_ALLOWED_ORIGINS'),
    mcpTimeoutMs: duration(env, 'MCP_TIMEOUT', 15_000),
    demoMode: boolean(env, 'DEMO_MODE'),
    indexProvider: indexProvider(env),
    providers: providersConfig(env, indexProvider(env)),
    trendingWindows: parseTrendingWindows(env.TRENDING_WINDOWS),
  });
}

/** Entry points call this: a bad value ends the process with one line naming the variable. */
export function loadConfigOrExit(env: Env = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
