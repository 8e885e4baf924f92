/**
 * Market reads before password hashing. On small VMs a busy vCPU slows its neighbour whatever
 * the guest's nice value: on this project's 2-vCPU machines an argon2 loop at nice 19 in
 * another process cut the API's cached-read throughput from ~37k to ~17-22k req/s. Priority
 * alone cannot protect the pollers, so while the event loop is busy the API also rations
 * argon2's CPU time: after each computation its slot rests long enough to hold hashing to
 * BUSY_SHARE of a core. An API that is not busy hashes at full speed (a lone login: ~20 ms).
 */
import { performance } from 'node:perf_hooks';

/** Event-loop utilisation above which the API counts as busy. */
const BUSY_ELU = 0.3;
/** Share of one core argon2 may use while the API is busy. */
export const BUSY_SHARE = 0.1;
const SAMPLE_MS = 100;

let last = performance.eventLoopUtilization();
let busy = false;
let sampler: NodeJS.Timeout | undefined;

/** Starts sampling (once per process; the timer never holds the process open). */
function sample(): void {
  if (sampler) return;
  sampler = setInterval(() => {
    const now = performance.eventLoopUtilization();
    busy = performance.eventLoopUtilization(now, last).utilization > BUSY_ELU;
    last = now;
  }, SAMPLE_MS).unref();
}

/** How long a hashing slot rests after a computation that took `tookMs`. */
export function restAfterHash(tookMs: number): number {
  sample();
  return busy ? (tookMs * (1 - BUSY_SHARE)) / BUSY_SHARE : 0;
}
