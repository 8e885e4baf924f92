/**
 * How long the primary waits before starting another API process after one exited
 * (WEB_CONCURRENCY > 1). A process that ran a while is replaced at once; processes that die
 * soon after starting (a bad deploy, Redis refusing connections) are replaced after a delay that
 * doubles with each quick death, so a crash loop does not fork as fast as the CPU allows.
 */
export interface RespawnBackoffOptions {
  /** The first delay after a quick death. Default 1 s. */
  baseMs?: number;
  /** The longest delay. Default 30 s. */
  maxMs?: number;
  /** A process that lived this long was healthy: the delay starts over. Default 60 s. */
  healthyMs?: number;
}

/** Returns the delay before the next fork, given how long the process that exited lived. */
export function respawnBackoff({ baseMs = 1_000, maxMs = 30_000, healthyMs = 60_000 }: RespawnBackoffOptions = {}): (
  livedMs: number,
) => number {
  let quickDeaths = 0;
  return (livedMs) => {
    quickDeaths = livedMs >= healthyMs ? 0 : quickDeaths + 1;
    return quickDeaths === 0 ? 0 : Math.min(maxMs, baseMs * 2 ** (quickDeaths - 1));
  };
}
