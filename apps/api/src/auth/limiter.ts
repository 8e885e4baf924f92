/**
 * A first-come, first-served cap on concurrent async work. A finishing task hands its slot straight
 * to the oldest waiter, so no caller can slip in between and push the count over the cap.
 */
export interface LimiterOptions {
  /** Milliseconds a slot rests after a task that took `tookMs`; 0 for none. */
  pauseAfter?: (tookMs: number) => number;
  /** Waiters allowed; one more gets `refuse()` thrown. Default unbounded. */
  maxWaiting?: number;
  refuse?: () => Error;
}

export type Limited = <T>(work: () => Promise<T>) => Promise<T>;

export function createLimiter(max: number, options: LimiterOptions = {}): Limited {
  if (!Number.isInteger(max) || max < 1) throw new RangeError('max must be a whole number >= 1');
  const { pauseAfter = () => 0, maxWaiting = Infinity, refuse = () => new Error('too many waiting') } = options;
  let running = 0;
  const queued: (() => void)[] = [];

  const release = () => {
    const next = queued.shift();
    if (next) next();
    else running -= 1;
  };

  return async function limited<T>(work: () => Promise<T>): Promise<T> {
    if (running < max) running += 1;
    else if (queued.length >= maxWaiting) throw refuse();
    // The slot is ours when the resolver runs: the finisher did not give it back to the pool.
    else await new Promise<void>((resolve) => queued.push(resolve));
    const started = performance.now();
    try {
      return await work();
    } finally {
      const pause = pauseAfter(performance.now() - started);
      if (pause > 0) setTimeout(release, pause);
      else release();
    }
  };
}
