import type { ListItem, ListKind } from '../../../../shared/snapshot-kinds.js';
import type { TrendingCa, TrendingToken } from '../../../../shared/market-types.js';
import type { JobContext } from '../jobs/job-context.js';
import { recordAddressBreakouts, recordTokenBreakouts } from './record-calls.js';

/** The breakouts a list refresh brings (docs/decisions.md#callers): the 24 h trending list and the trending addresses; no other list. */
export async function recordBreakouts<N extends ListKind>(
  { redis, callers }: JobContext,
  name: N,
  data: readonly ListItem<N>[],
  atMs: number,
): Promise<number> {
  if (name === 'trending') return recordTokenBreakouts(redis, data as readonly TrendingToken[], atMs, callers);
  if (name === 'trending-cas') return recordAddressBreakouts(redis, data as readonly TrendingCa[], atMs, callers);
  return 0;
}
