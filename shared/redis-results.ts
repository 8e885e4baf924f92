/**
 * Runs a MULTI or a pipeline and checks every reply. ioredis resolves `exec()` with one
 * `[error, value]` pair per command: a WRONGTYPE, an OOM or any other failed command does not
 * reject the promise, so every batch in this codebase goes through `execChecked`.
 */
import type { ChainableCommander } from 'ioredis';
import { RedisCommandError } from './errors.js';

/**
 * The batch's replies, in order; throws `RedisCommandError` naming the first failed command,
 * or when a MULTI was discarded (EXEC answered null after a WATCHed key changed).
 */
export async function execChecked(batch: ChainableCommander): Promise<unknown[]> {
  const results = await batch.exec();
  if (results === null) throw new RedisCommandError(-1, 'exec', 'transaction discarded: a watched key changed');
  return results.map(([error, value], index) => {
    // ioredis attaches the command (`{ name, args }`) to its reply errors.
    if (error)
      throw new RedisCommandError(index, (error as { command?: { name?: string } }).command?.name, error.message, { cause: error });
    return value;
  });
}
