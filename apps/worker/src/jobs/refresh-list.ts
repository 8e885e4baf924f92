import { writeRefresh } from '../../../../shared/history/history-store.js';
import { listEntries } from '../../../../shared/history/refresh-entries.js';
import { boundProviderText } from '../../../../shared/provider-text.js';
import type { ListKind } from '../../../../shared/snapshot-kinds.js';
import { listCall } from '../providers/market-provider.js';
import type { JobContext } from './job-context.js';
import { storeFetched } from './store-fetched.js';
import { recordBreakouts } from '../callers/record-breakouts.js';
import { alertsAfterList, alertsPrevious } from '../alerts/refresh-hooks.js';

/**
 * A ranked list snapshot (a list kind of shared/snapshot-kinds.ts): fetched whole, stored as the exact
 * response body, and appended to history in the same write.
 */
export async function refreshList(context: JobContext, name: ListKind): Promise<{ items: number }> {
  const { redis, provider, now, historyMs, logger } = context;
  const data = boundProviderText(await listCall(provider, name)());
  const alertsBefore = await alertsPrevious(context, name);
  const at = now();
  const cachedAt = at.toISOString();
  const body = JSON.stringify({ data, cachedAt });
  await storeFetched(() => recordBreakouts(context, name, data, at.getTime()));
  const write = { atMs: at.getTime(), snapshots: [{ name, body, version: cachedAt }], entries: listEntries(name, body, data) };
  const written = await storeFetched(() => writeRefresh(redis, write, historyMs));
  if (!written) logger.warn({ cachedAt }, `${name}: a newer refresh is already stored; this one was dropped`);
  else await alertsAfterList(context, name, alertsBefore, data, cachedAt);
  return { items: data.length };
}
