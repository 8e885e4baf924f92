import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/**
 * JSON lines on stdout; secrets are redacted wherever they might be logged. Writes are
 * asynchronous (lines written while a write is in flight coalesce): a synchronous write per
 * request line costs a large share of a cached read. pino flushes what is pending at exit.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, name: string): Logger {
  return pino(
    {
      name,
      level: config.logLevel,
      base: { pid: process.pid },
      redact: ['indexApiKey', 'jwtSecret', 'password', 'headers.authorization', 'headers["x-api-key"]'],
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
