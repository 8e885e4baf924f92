import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/**
 * JSON lines on stdout; secrets are redacted wherever they might be logged. Writes are
 * asynchronous and coalesced (see lineBatcher). pino flushes what is pending at exit.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, name: string): Logger {
  return pino(
    {
      name,
      level: config.logLevel,
      base: { pid: process.pid },
      redact: ['indexApiKey', 'jwtSecret', 'password', 'headers.authorization', 'headers["x-api-key"]'],
    },
    lineBatcher(pino.destination({ dest: 1, sync: false })),
  );
}

type SonicBoom = ReturnType<typeof pino.destination>;

/** Batchers with lines not yet handed over, emptied at exit before pino's own final flush. */
const unflushed = new Set<() => void>();
let exitHookInstalled = false;

/**
 * Hands the lines logged during one turn of the event loop to the destination as one string.
 * sonic-boom measures its whole pending buffer on every write (~2.3 µs a line in a tight loop)
 * and starts a write per line when idle; one write per turn pays that once (+3 % cached reads
 * with the access log on, six interleaved rounds).
 */
export function lineBatcher(destination: SonicBoom): DestinationStream {
  let pending = '';
  const flush = () => {
    unflushed.delete(flush);
    if (pending === '') return;
    const lines = pending;
    pending = '';
    destination.write(lines);
  };
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Prepended: pino's exit handler (registered with the destination) must find the lines there.
    process.prependListener('exit', () => {
      for (const pendingFlush of [...unflushed]) pendingFlush();
    });
  }
  return {
    write(line: string) {
      if (pending === '') {
        unflushed.add(flush);
        setImmediate(flush);
      }
      pending += line;
    },
  };
}
