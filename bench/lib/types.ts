/** Shapes passed between the orchestrator, its child processes and the report. */

/** One round of load, as the load-generator child runs it. */
export interface LoadSpec {
  url: string;
  connections: number;
  /** Seconds of load; ignored when `amount` is set. */
  durationSec: number;
  /** A fixed number of requests instead of a duration (the quick mode). */
  amount?: number;
  /** Requests per second offered in all (open loop); unset = as fast as the server answers. */
  rate?: number;
  /** Seconds before a request counts as timed out (default 10). */
  timeoutSec?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Paths on `url`'s origin sent in turn, one request each (`amount` is their number): distinct keys. */
  paths?: string[];
}

/** What one round measured, from the client's side. Latencies in ms, from hrtime (not rounded). */
export interface LoadResult {
  /** Responses received, whatever their status. */
  responses: number;
  /** Responses per status code, e.g. { "200": 41230 }. */
  byStatus: Record<string, number>;
  errors: number;
  timeouts: number;
  durationSec: number;
  /** Responses per second (the orchestrator refuses a round with any unexpected status). */
  rps: number;
  p50: number;
  p99: number;
  mean: number;
}

/** One news refresh in the worker child. */
export interface RefreshSample {
  items: number;
  tokens: number;
  cpuMs: number;
  wallMs: number;
  rssBytes: number;
  /** Whether this refresh wrote history (the worker child alternates). */
  history?: boolean;
}

/** The server side of a round: CPU spent (summed over its processes) and the largest RSS seen. */
export interface ServerSide {
  cpuMs: number;
  maxRssBytes: number;
  /** CPU the load generator(s) spent in the round. */
  loadCpuMs: number;
  /** CPU the bench's redis-server spent in the round (0 where it was not watched). */
  redisCpuMs?: number;
  /** Everything else the machine spent (kernel, Redis, the orchestrator, anything foreign). */
  otherCpuMs: number;
  wallMs: number;
}

/** The stats burst, from the client's side. */
export interface BurstResult {
  /** Kept-alive connections ready before the burst (should equal the request count). */
  openSockets: number;
  /** Wall-clock time the burst was fired (ms since epoch), to line it up with other processes' logs. */
  startedAtEpochMs: number;
  statuses: number[];
  /** Completion times in ms from the burst's start, ascending. */
  completionMs: number[];
}
