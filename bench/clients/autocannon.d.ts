/** The part of autocannon's programmatic API the load generator uses (it ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    amount?: number;
    /** Requests per second across all connections. */
    overallRate?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Requests sent in turn; `setupRequest` rebuilds one just before each send. */
    requests?: { setupRequest?: (request: { path?: string }) => { path?: string } }[];
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    /** Milliseconds between samples; the run ends on a sample tick. */
    sampleInt?: number;
  }

  interface Result {
    errors: number;
    timeouts: number;
    /** Seconds, measured by autocannon. */
    duration: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface Instance extends EventEmitter {
    on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
    stop(): void;
  }

  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
