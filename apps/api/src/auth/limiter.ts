/**
 * A first-come, first-served cap on concurrent async work. A finishing task hands its slot
 * straight to the oldest waiter, so a caller arriving between the release and the waiter's
 * resumption can never slip in and push the count over the cap (the bug of an `if` check
 * followed by an increment after the wait).
 */
export function createLimiter(max: number): <T>(work: () => Promise<T>) => Promise<T> {
  if (!Number.isInteger(max) || max < 1) throw new RangeError('max must be a whole number >= 1');
  let running = 0;
  const queued: (() => void)[] = [];
  return async function limited<T>(work: () => Promise<T>): Promise<T> {
    if (running < max) running += 1;
    // The slot is ours when the resolver runs: the finisher did not give it back to the pool.
    else await new Promise<void>((resolve) => queued.push(resolve));
    try {
      return await work();
    } finally {
      const next = queued.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
