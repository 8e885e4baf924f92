import { writeRefresh } from '../../../../shared/history/history-store.js';
import { listHistory, listOf, type ListItem, type ListKind, type ListUpstream } from '../../../../shared/reads.js';
import type { IndexClient } from '../index-client.js';
import type { JobContext } from './job-context.js';

/** Each list kind's upstream call returns that kind's items: a kind named here whose call does not fails the type check. */
type Disagreeing = {
  [K in ListKind]: ReturnType<IndexClient[ListUpstream<K>]> extends Promise<ListItem<K>[]> ? never : K;
}[ListKind];
const everyUpstreamAgrees: [Disagreeing] extends [never] ? true : Disagreeing = true;
void everyUpstreamAgrees;

function fetchList<N extends ListKind>(index: IndexClient, name: N): Promise<ListItem<N>[]> {
  return (index[listOf(name).upstream] as () => Promise<ListItem<N>[]>).call(index);
}

/**
 * A ranked list snapshot (a list kind of shared/reads.ts): fetched whole, stored as the exact
 * response body, and appended to history in the same write.
 */
export async function refreshList({ redis, index, now, historyMs, logger }: JobContext, name: ListKind): Promise<{ items: number }> {
  const data = await fetchList(index, name);
  const at = now();
  const cachedAt = at.toISOString();
  const body = JSON.stringify({ data, cachedAt });
  const write = { atMs: at.getTime(), snapshots: [{ name, body, version: cachedAt }], entries: listHistory(name, body, data) };
  const written = await writeRefresh(redis, write, historyMs);
  if (!written) logger.warn({ cachedAt }, `${name}: a newer refresh is already stored; this one was dropped`);
  return { items: data.length };
}
