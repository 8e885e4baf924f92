import type { Logger } from './logger.js';

/** Heroku sends SIGKILL 30 s after SIGTERM; whatever `close` still waits on is cut at 25 s. */
const SHUTDOWN_LIMIT_MS = 25_000;

/**
 * Runs `close` once on SIGTERM or SIGINT, then exits. A platform sends SIGTERM to every process
 * of a dyno (a cluster primary forwards it too), so a repeated SIGTERM is only noted; a second
 * SIGINT (Ctrl-C twice) exits at once.
 */
export function onShutdown(logger: Logger, close: () => Promise<void>): void {
  let closing = false;
  const handler = (signal: NodeJS.Signals) => {
    if (closing) {
      if (signal === 'SIGINT') process.exit(1);
      return;
    }
    closing = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error({ limitMs: SHUTDOWN_LIMIT_MS }, 'shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
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

/** Refuses to run: one line on stderr naming what is wrong, exit code 1 (as a bad variable does). */
export function refuseToRun(line: string): never {
  process.stderr.write(`Refusing to start: ${line}\n`);
  process.exit(1);
}
