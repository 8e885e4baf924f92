/**
 * Clients in a loop, as dashboards and bots poll: each one a keep-alive HTTP loop over a list
 * of paths, recording every outcome with its time, so a fault test can say how many requests
 * were sent during a fault, which failed and for how long service was degraded.
 *
 * node:http rather than fetch, for `reusedSocket`: a request lost on a socket the server had
 * already served on (closed under it) is the server's fault; a new connection that finds the
 * listener closed (refused, or reset in the instant it closes) is a routing matter, which a
 * platform's router handles by sending it to another dyno.
 */
import { Agent, request } from 'node:http';

export interface Outcome {
  /** When the request was sent (epoch ms). */
  at: number;
  path: string;
  /** HTTP status, or 0 when no response came. */
  status: number;
  /** The socket-level failure code (ECONNREFUSED, ECONNRESET ...). */
  error?: string;
  /** Whether it went on a kept-alive socket that had served a request before. */
  reused: boolean;
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
}

export interface RunningLoad {
  outcomes: Outcome[];
  stop(): Promise<Outcome[]>;
}

function send(agent: Agent, url: string, path: string): Promise<Outcome> {
  const at = Date.now();
  return new Promise((resolve) => {
    const req = request(`${url}${path}`, { agent }, (res) => {
      res.resume();
      res.once('end', () =>
        resolve({ at, path, status: res.statusCode ?? 0, reused: req.reusedSocket, close: res.headers.connection === 'close' }),
      );
      res.once('error', (error: NodeJS.ErrnoException) =>
        resolve({ at, path, status: 0, error: error.code ?? error.message, reused: req.reusedSocket, close: false }),
      );
    });
    req.once('error', (error: NodeJS.ErrnoException) =>
      resolve({ at, path, status: 0, error: error.code ?? error.message, reused: req.reusedSocket, close: false }),
    );
    req.end();
  });
}

export function startLoad(options: LoadOptions): RunningLoad {
  const outcomes: Outcome[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: options.clients });
  let stopped = false;
  let sent = 0;
  const client = async (offset: number) => {
    for (let i = offset; !stopped; i += 1) {
      const entry = options.paths[i % options.paths.length]!;
      const outcome = await send(agent, options.baseUrl, typeof entry === 'function' ? entry((sent += 1)) : entry);
      outcomes.push(outcome);
      // A refused connect fails at once: don't spin the CPU while nothing listens.
      if (outcome.status === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  };
  const running = Array.from({ length: options.clients }, (_, i) => client(i));
  return {
    outcomes,
    async stop() {
      stopped = true;
      await Promise.all(running);
      agent.destroy();
      return outcomes;
    },
  };
}

/** A new connection that found no listener: refused, or reset as the listener closed. */
const noListener = (o: Outcome) => o.status === 0 && !o.reused && (o.error === 'ECONNREFUSED' || o.error === 'ECONNRESET');

export interface Summary {
  sent: number;
  /** Responses 5xx, and requests that failed on a socket the server had accepted. */
  errors: Outcome[];
  /** New connections that found no listener (a platform's router sends them to another dyno). */
  refused: number;
  /** From the first failed outcome to the last one, in ms (0 when none failed). */
  degradedMs: number;
}

/** Outcomes between `from` and `to` (epoch ms); `isError` decides what counts as a failure. */
export function summarize(
  outcomes: readonly Outcome[],
  from: number,
  to: number,
  isError = (o: Outcome) => o.status >= 500 || (o.status === 0 && !noListener(o)),
): Summary {
  const window = outcomes.filter((o) => o.at >= from && o.at <= to);
  const errors = window.filter(isError);
  const failed = window.filter((o) => isError(o) || noListener(o));
  const times = failed.map((o) => o.at);
  const degradedMs = times.length > 0 ? Math.max(...times) - Math.min(...times) : 0;
  return { sent: window.length, errors, refused: window.filter(noListener).length, degradedMs };
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
