/**
 * The one place that reads the environment. Parsed and validated once, synchronously, at
 * start-up; every other module receives the frozen result.
 */
import { randomBytes } from 'node:crypto';

export type NodeEnv = 'development' | 'production' | 'test';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  /** NODE_ENV: `production` makes JWT_SECRET, REDIS_URL and INDEX_API_URL mandatory. Default `development`. */
  readonly nodeEnv: NodeEnv;
  /** PORT: where the API listens. Default 3000. */
  readonly port: number;
  /** REDIS_URL: `redis://` or `rediss://` (TLS). Default `redis://127.0.0.1:6379` outside production. */
  readonly redisUrl: string;
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
  /** DEMO_MODE: seed the demo user at start (set by `npm start` only). Default false. */
  readonly demoMode: boolean;
}

/** A bad environment value: main() prints the message on one line and exits 1. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

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
    redisUrl: url(env, 'REDIS_URL', production ? undefined : 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
    redisTlsInsecure: boolean(env, 'REDIS_TLS_INSECURE'),
    jwtSecret: givenSecret || randomBytes(48).toString('base64url'),
    jwtSecretGenerated: !givenSecret,
    jwtIssuer: env.JWT_ISSUER || 'market-signals',
    indexApiUrl: url(env, 'INDEX_API_URL', production ? undefined : 'http://127.0.0.1:4010', ['http:', 'https:']),
    indexApiKey: env.INDEX_API_KEY || undefined,
    indexRateLimitPerMinute: integer(env, 'INDEX_RATE_LIMIT', 600, 1, 1_000_000),
    logLevel,
    webConcurrency: integer(env, 'WEB_CONCURRENCY', 1, 1, 64),
    trustProxy: boolean(env, 'TRUST_PROXY'),
    demoMode: boolean(env, 'DEMO_MODE'),
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
