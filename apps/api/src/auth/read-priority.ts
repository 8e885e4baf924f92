/**
 * Market reads before password hashing. On small VMs a busy vCPU slows its neighbour whatever the
 * nice value (an argon2 loop at nice 19 cut cached reads from ~37k to ~17-22k req/s), so while the
 * event loop is busy a hashing slot rests after each computation, holding argon2 to BUSY_SHARE of a core.
 */
import { performance } from 'node:perf_hooks';

/** Event-loop utilisation above which the API counts as busy. */
const BUSY_ELU = 0.3;
/** Share of one core argon2 may use while the API is busy. */
export const BUSY_SHARE = 0.1;
const SAMPLE_MS = 100;

/** The event loop's recent load, sampled while hashing goes on. */
export class ReadPriority {
  private last = performance.eventLoopUtilization();
  private busy = false;
  private sampler: NodeJS.Timeout | undefined;

  /** How long a hashing slot rests after a computation that took `tookMs`. */
  restAfterHash(tookMs: number): number {
    this.sample();
    return this.busy ? (tookMs * (1 - BUSY_SHARE)) / BUSY_SHARE : 0;
  }

  /** Stops sampling; the next computation starts it again. */
  stop(): void {
    clearInterval(this.sampler);
    this.sampler = undefined;
  }

  /** Starts sampling on first need (the timer never holds the process open). */
  private sample(): void {
    if (this.sampler) return;
    this.last = performance.eventLoopUtilization();
    this.sampler = setInterval(() => {
      const now = performance.eventLoopUtilization();
      this.busy = performance.eventLoopUtilization(now, this.last).utilization > BUSY_ELU;
      this.last = now;
    }, SAMPLE_MS).unref();
  }
}
