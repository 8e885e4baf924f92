import { inspect } from 'node:util';

/**
 * Polls `probe` until it returns a value (not undefined), or fails after `timeoutMs`. A probe
 * that throws counts as "not yet"; when it gives up, the error says what the probe last threw
 * (and keeps it as `cause`), so a timeout tells why the condition never held.
 */
export async function eventually<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const why =
        lastError === undefined ? '' : `; the probe last threw: ${lastError instanceof Error ? lastError.message : inspect(lastError)}`;
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${why}`,
        lastError === undefined ? undefined : { cause: lastError },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
