/**
 * Clients in a loop, as dashboards and bots poll: each one a keep-alive fetch loop over a list
 * of paths, recording every outcome with its time, so a fault test can say how many requests
 * were sent during a fault, which failed and for how long service was degraded.
 */

export interface Outcome {
  /** When the request was sent (epoch ms). */
  at: number;
  path: string;
  /** HTTP status, or 0 when no response came. */
  status: number;
  /** The socket-level failure (undici's cause code: ECONNREFUSED, UND_ERR_SOCKET ...). */
  error?: string;
  /** Whether the response asked the client to leave (`Connection: close`). */
  close: boolean;
}

export interface LoadOptions {
  baseUrl: string;
  /** Each client cycles through these (a function gets the request number, for unique names). */
  paths: readonly (string | ((n: number) => string))[];
  clients: number;
  /** Pause between a client's requests; default none. */
  pauseMs?: number;
  init?: RequestInit;
}

export interface RunningLoad {
  outcomes: Outcome[];
  stop(): Promise<Outcome[]>;
}

export function startLoad(options: LoadOptions): RunningLoad {
  const outcomes: Outcome[] = [];
  let stopped = false;
  let sent = 0;
  const client = async (offset: number) => {
    for (let i = offset; !stopped; i += 1) {
      const entry = options.paths[i % options.paths.length]!;
      const path = typeof entry === 'function' ? entry((sent += 1)) : entry;
      const at = Date.now();
      try {
        const response = await fetch(`${options.baseUrl}${path}`, options.init);
        await response.arrayBuffer();
        outcomes.push({ at, path, status: response.status, close: response.headers.get('connection') === 'close' });
      } catch (error) {
        outcomes.push({ at, path, status: 0, error: causeCode(error), close: false });
        // A refused connect fails at once: don't spin the CPU while nothing listens.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  };
  const running = Array.from({ length: options.clients }, (_, i) => client(i));
  return {
    outcomes,
    async stop() {
      stopped = true;
      await Promise.all(running);
      return outcomes;
    },
  };
}

export function causeCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  return cause?.code ?? cause?.message ?? String(error);
}

export interface Summary {
  sent: number;
  /** Responses 5xx, and requests that failed on a socket the server had accepted. */
  errors: Outcome[];
  /** Connections refused because no process was listening (a platform's router routes around it). */
  refused: number;
  /** From the first failed outcome to the last one, in ms (0 when none failed). */
  degradedMs: number;
}

/** Outcomes between `from` and `to` (epoch ms); `isError` decides what counts as a failure. */
export function summarize(outcomes: readonly Outcome[], from: number, to: number, isError = (o: Outcome) => o.status >= 500 || (o.status === 0 && o.error !== 'ECONNREFUSED')): Summary {
  const window = outcomes.filter((o) => o.at >= from && o.at <= to);
  const errors = window.filter(isError);
  const failed = window.filter((o) => isError(o) || o.error === 'ECONNREFUSED');
  const times = failed.map((o) => o.at);
  const degradedMs = times.length > 0 ? Math.max(...times) - Math.min(...times) : 0;
  return { sent: window.length, errors, refused: window.filter((o) => o.error === 'ECONNREFUSED').length, degradedMs };
}

/** Runs `probe` every 200 ms until stopped, keeping when each attempt started and whether it worked. */
export function watch(probe: () => Promise<boolean>) {
  const attempts: { at: number; ok: boolean }[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const at = Date.now();
      attempts.push({ at, ok: await probe().catch(() => false) });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    attempts,
    async stop() {
      stopped = true;
      await loop;
      return attempts;
    },
  };
}

/** From the first failed attempt after `from` to the first success after it (0 when none failed). */
export function outage(attempts: { at: number; ok: boolean }[], from: number): number {
  const firstFailure = attempts.find((a) => a.at >= from && !a.ok);
  if (!firstFailure) return 0;
  const recovered = attempts.find((a) => a.at > firstFailure.at && a.ok);
  return (recovered?.at ?? Date.now()) - firstFailure.at;
}
