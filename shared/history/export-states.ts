/**
 * Every stored state of some kinds within a range, oldest first, read from the history streams in
 * pages (GET /api/export, `npm run export`): a month of history is never held at once.
 * A list kind's state is its exact response body (what `?at=` answers); news', sentiment's and
 * mindshare's are the events GET /api/market/stream served (`{ data, cachedAt }`).
 */
import { Command, type Redis } from 'ioredis';
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

/** Where an XRANGE's reply is left for its caller, outside the command that read it. */
interface ReplySlot {
  reply?: unknown;
}

/**
 * XRANGE whose reply is handed over, not kept in the command. ioredis 6's Command assigns an arrow
 * function to `this.reject` in its constructor; V8 allocates a function literal assigned to a
 * property in old space (as it would a method), and that closure's context holds the command, its
 * promise and the promise's resolve function. So a reply awaited from `redis.xrange()` stays
 * reachable from an old-space object until the next major GC: every page of an export survived
 * two scavenges and was promoted, and a 30-day export grew the API's old space, and its RSS, by
 * about the bytes it streamed (docs/decisions.md#d24). Here the reply goes to a slot the caller
 * holds and the command resolves with nothing, so a page dies young once consumed.
 */
class HandedOverXrange extends Command {
  // Not `slot`: Command has a private field of that name (the key's cluster slot).
  private handOver: ReplySlot | undefined;

  constructor(args: (string | number)[], handOver: ReplySlot, keyPrefix: string | undefined) {
    super('xrange', args, { replyEncoding: 'utf8', ...(keyPrefix === undefined ? {} : { keyPrefix }) });
    this.handOver = handOver;
  }

  override transformReply(result: Buffer | Buffer[]): string[] {
    const handOver = this.handOver;
    this.handOver = undefined;
    if (handOver) handOver.reply = super.transformReply(result);
    return [];
  }
}

/** XRANGE key start end COUNT count, as `redis.xrange` answers it (see HandedOverXrange). */
export async function xrangePage(redis: Redis, key: string, start: string, end: string, count: number): Promise<RawEntry[]> {
  const slot: ReplySlot = {};
  await redis.sendCommand(new HandedOverXrange([key, start, end, 'COUNT', count], slot, redis.options.keyPrefix));
  return slot.reply as RawEntry[];
}

/** One kind's states in [fromMs, toMs], oldest first, a page at a time. */
async function* kindStates(redis: Redis, kind: ExportKind, fromMs: number, toMs: number, pageSize: number): AsyncGenerator<ExportedState> {
  const key = historyKeys.events(kind);
  let start = String(Math.max(0, Math.floor(fromMs)));
  for (;;) {
    const page = await xrangePage(redis, key, start, String(Math.floor(toMs)), pageSize);
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
