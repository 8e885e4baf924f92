import type { Logger } from './logger.js';

/**
 * Runs `close` once on SIGTERM or SIGINT (Heroku sends SIGTERM, then SIGKILL after 30 s),
 * then exits. A second signal exits at once.
 */
export function onShutdown(logger: Logger, close: () => Promise<void>): void {
  let closing = false;
  const handler = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    logger.info({ signal }, 'shutting down');
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
