// The index simulator: a real HTTP server speaking the upstream index API (docs/index-api.md)
// over deterministic, clock-driven data, with switchable faults. Tests and the demo launcher
// start it in-process with startSimulator(); `npm run sim` runs it alone (main.ts).

import { createHash, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ControlPanel, handleControl } from './control-routes.js';
import { type Faults, NO_FAULTS, faultsApplyTo, malformedBody, parseFaults } from './faults.js';
import { NOT_FOUND, reply, send, sendRaw } from './http.js';
import { type Rng, rngFor } from './random.js';
import { V1_TEMPLATES, matchV1 } from './v1-routes.js';
import { World } from './world.js';

export type { Faults } from './faults.js';

export interface SimulatorOptions {
  /** TCP port; default 0 (an ephemeral port, see Simulator.url). */
  port?: number;
  /** Interface to bind; default '127.0.0.1'. */
  host?: string;
  /** Seed of all generated data; default 42. Same seed + same clock = same bodies. */
  seed?: number;
  /** Posts in the 3-day window; default 1000 (benchmarks use 10000). */
  postCount?: number;
  /** When set, /v1/* requests need `X-Api-Key` equal to it. */
  apiKey?: string;
  /** Wall clock in ms, default Date.now; the simulated clock is now() + the advanced offset. */
  now?: () => number;
}

export interface Simulator {
  /** Base address, e.g. http://127.0.0.1:43121 (no trailing slash). */
  url: string;
  /** Same semantics as PUT /__sim/faults: replaces the settings, unspecified = off. */
  setFaults(f: Partial<Faults>): void;
  clearFaults(): void;
  /** /v1 requests per route template, faulted ones included, e.g. '/v1/accounts/:username'. */
  stats(): Record<string, number>;
  resetStats(): void;
  advanceClock(ms: number): void;
  /** Canonical spelling of every tracked account. */
  trackedUsernames(): string[];
  /** Stops listening and destroys every connection, hanging ones included. */
  close(): Promise<void>;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

class SimulatorCore implements ControlPanel {
  private current: Faults = { ...NO_FAULTS };
  private errorRng: Rng;
  private malformedCount = 0;
  private faultGeneration = 0;
  private offsetMs = 0;
  private counts: Record<string, number> = {};
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly keyDigest: Buffer | undefined;

  constructor(
    readonly world: World,
    private readonly wallClock: () => number,
    apiKey: string | undefined,
  ) {
    this.keyDigest = apiKey === undefined ? undefined : digest(apiKey);
    this.errorRng = rngFor(world.seed, 'errors', 0);
    this.resetStats();
  }

  now(): number {
    return this.wallClock() + this.offsetMs;
  }

  faults(): Faults {
    return structuredClone(this.current);
  }

  setFaults(input: unknown): void {
    this.current = parseFaults(input);
    // Restart the fault sequences so a given setting fails the same requests every run.
    this.faultGeneration++;
    this.errorRng = rngFor(this.world.seed, 'errors', this.faultGeneration);
    this.malformedCount = 0;
  }

  clearFaults(): void {
    this.setFaults({});
  }

  stats(): Record<string, number> {
    return { ...this.counts };
  }

  resetStats(): void {
    this.counts = Object.fromEntries(V1_TEMPLATES.map((t) => [t, 0]));
  }

  advanceClock(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advanceMs must be a finite number >= 0');
    this.offsetMs += ms;
  }

  clock(): { now: string; offsetMs: number } {
    return { now: new Date(this.now()).toISOString(), offsetMs: this.offsetMs };
  }

  stopTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { pathname, searchParams } = new URL(req.url ?? '/', 'http://simulator');
    if (pathname.startsWith('/__sim/')) return handleControl(req, res, pathname, this);
    const route = req.method === 'GET' && pathname.startsWith('/v1/') ? matchV1(pathname) : undefined;
    if (!route) return send(res, NOT_FOUND);
    this.counts[route.template] = (this.counts[route.template] ?? 0) + 1;

    const faults = faultsApplyTo(this.current, pathname) ? this.current : NO_FAULTS;
    // Network-level faults come first: a slow or stuck provider is slow for everyone.
    if (faults.latencyMs > 0) await this.sleep(faults.latencyMs);
    if (faults.hang) return; // never answered; close() destroys the socket
    if (!this.keyAccepted(req.headers['x-api-key'])) return send(res, reply(401, { error: 'unauthorized' }));
    if (faults.rateLimit) {
      const retryAfter = String(faults.rateLimit.retryAfter);
      return send(res, reply(429, { error: 'rate_limited' }, { 'retry-after': retryAfter }));
    }
    if (faults.errorRate > 0 && this.errorRng() < faults.errorRate) return send(res, reply(500, { error: 'internal' }));
    const answer = route.run(this.world, searchParams, this.now());
    if (faults.malformed && answer.status === 200)
      return sendRaw(res, 200, malformedBody(route.template, JSON.stringify(answer.body), this.malformedCount++));
    send(res, answer);
  }

  private keyAccepted(header: string | string[] | undefined): boolean {
    if (this.keyDigest === undefined) return true;
    if (typeof header !== 'string') return false;
    // Compare digests: equal lengths for timingSafeEqual, and no early exit on a prefix.
    return timingSafeEqual(digest(header), this.keyDigest);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}

function closeServer(server: Server, core: SimulatorCore): Promise<void> {
  return new Promise((resolve) => {
    core.stopTimers();
    server.close(() => resolve());
    // Hanging and keep-alive connections would hold close() open forever.
    server.closeAllConnections();
  });
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const world = new World(options.seed ?? 42, options.postCount ?? 1000);
  const core = new SimulatorCore(world, options.now ?? Date.now, options.apiKey);
  const server = createServer((req, res) => {
    core.handle(req, res).catch(() => send(res, reply(500, { error: 'internal' })));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    setFaults: (f) => core.setFaults(f),
    clearFaults: () => core.clearFaults(),
    stats: () => core.stats(),
    resetStats: () => core.resetStats(),
    advanceClock: (ms) => core.advanceClock(ms),
    trackedUsernames: () => world.accounts.map((a) => a.username),
    close: () => (closing ??= closeServer(server, core)),
  };
}
