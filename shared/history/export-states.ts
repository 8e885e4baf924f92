/**
 * Every stored state of some kinds within a range, oldest first, read from the history streams in
 * pages (GET /api/export, `npm run export`): a month of history is never held at once.
 * A list kind's state is its exact response body (what `?at=` answers); news', sentiment's and
 * mindshare's are the events GET /api/market/stream served (`{ data, cachedAt }`).
 */
import type { Redis } from 'ioredis';
import { historyKeys } from '../snapshot-keys.js';
import type { SnapshotName } from '../snapshot-kinds.js';

export const EXPORT_KINDS = ['trending', 'trending-cas', 'news', 'sentiment', 'mindshare'] as const satisfies readonly SnapshotName[];
export type ExportKind = (typeof EXPORT_KINDS)[number];

/**
 * Entries read per XRANGE: a few hundred KB per kind at most. A news event of 1,000 tracked
 * accounts is ~70 KB (200 posts a refresh), and a reply is parsed in one go, blocking the loop.
 */
export const EXPORT_PAGE_ENTRIES = 10;

export interface ExportedState {
  kind: ExportKind;
  /** The history stream's entry id (`<ms>-<seq>`). */
  id: string;
  /** The refresh's time, ms since epoch (the entry id's). */
  atMs: number;
  /** The state exactly as stored and served: a JSON text. */
  body: string;
}

type RawEntry = [id: string, fields: string[]];

/** One kind's states in [fromMs, toMs], oldest first, a page at a time. */
async function* kindStates(redis: Redis, kind: ExportKind, fromMs: number, toMs: number, pageSize: number): AsyncGenerator<ExportedState> {
  const key = historyKeys.events(kind);
  let start = String(Math.max(0, Math.floor(fromMs)));
  for (;;) {
    const page = (await redis.xrange(key, start, String(Math.floor(toMs)), 'COUNT', pageSize)) as RawEntry[];
    for (const [id, fields] of page) {
      const body = fields[fields.indexOf('b') + 1];
      if (fields.indexOf('b') % 2 === 0 && body !== undefined) yield { kind, id, atMs: Number(id.slice(0, id.indexOf('-'))), body };
    }
    const last = page.at(-1);
    if (!last || page.length < pageSize) return;
    start = `(${last[0]}`;
  }
}

/** Every kind's states in [fromMs, toMs], merged oldest first (a refresh's kinds in the order asked). */
export async function* exportStates(
  redis: Redis,
  kinds: readonly ExportKind[],
  fromMs: number,
  toMs: number,
  pageSize = EXPORT_PAGE_ENTRIES,
): AsyncGenerator<ExportedState> {
  if (toMs < fromMs) return;
  const cursors = kinds.map((kind) => kindStates(redis, kind, fromMs, toMs, pageSize));
  const heads = await Promise.all(cursors.map(async (cursor) => (await cursor.next()).value as ExportedState | undefined));
  for (;;) {
    let next = -1;
    heads.forEach((head, index) => {
      if (head && (next === -1 || head.atMs < heads[next]!.atMs)) next = index;
    });
    if (next === -1) return;
    const head = heads[next]!;
    heads[next] = (await cursors[next]!.next()).value as ExportedState | undefined;
    yield head;
  }
}
