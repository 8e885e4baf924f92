import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/** JSON lines on stdout; secrets are redacted wherever they might be logged. */
export function createLogger(config: Pick<Config, 'logLevel'>, name: string): Logger {
  return pino({
    name,
    level: config.logLevel,
    base: { pid: process.pid },
    redact: ['indexApiKey', 'jwtSecret', 'password', 'headers.authorization', 'headers["x-api-key"]'],
  });
}
