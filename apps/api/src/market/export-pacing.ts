/**
 * Paces GET /api/export so that a month of history streamed at once does not starve the reads
 * (docs/decisions.md#d24): every export of the process draws from one byte rate, in chunks of at
 * most EXPORT_CHUNK_BYTES, and waits at least one event-loop turn between chunks, so the requests
 * that arrived meanwhile are served before its next chunk is built.
 */
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/** Bytes the process's exports may send per second, all together: a 30-day export of ~200 MB takes ~25 s. */
export const EXPORT_BYTES_PER_SECOND = 8 * 1024 * 1024;
/** A chunk's size: one socket write, built in well under a millisecond. */
export const EXPORT_CHUNK_BYTES = 64 * 1024;

/** Waits `ms` (a timer), or when under a millisecond one turn of the event loop (setImmediate: after the I/O pending). */
async function waitFor(ms: number): Promise<void> {
  if (ms >= 1) await sleep(ms);
  else await nextTurn();
}

export class ExportPacer {
  /** When the rate has room again (performance.now() time): the end of the last chunk's slot. */
  private freeAt = 0;

  constructor(
    private readonly bytesPerSecond = EXPORT_BYTES_PER_SECOND,
    private readonly now = () => performance.now(),
    private readonly wait: (ms: number) => Promise<void> = waitFor,
  ) {}

  /** Resolves when `bytes` may be sent: on the next turn of the event loop, or later when the rate is spent. */
  async take(bytes: number): Promise<void> {
    const now = this.now();
    // Idle time is not saved up: an export after a quiet minute starts at the rate, not in a burst.
    const start = Math.max(now, this.freeAt);
    this.freeAt = start + (bytes / this.bytesPerSecond) * 1000;
    await this.wait(start - now);
  }
}

/** Joins lines into chunks of about `chunkBytes`, each sent when the pacer allows. */
export async function* pacedChunks(
  lines: AsyncIterable<string>,
  pacer: ExportPacer,
  chunkBytes = EXPORT_CHUNK_BYTES,
): AsyncGenerator<string> {
  let chunk = '';
  for await (const line of lines) {
    // Never past chunkBytes by joining: a chunk of 64 KB plus a 70 KB news line is over V8's largest
    // regular object (128 KB). (What grew the API's RSS over a 30-day export was not the chunks but
    // ioredis keeping every reply until a major GC: shared/history/export-states.ts.)
    if (chunk !== '' && chunk.length + line.length > chunkBytes) {
      await pacer.take(Buffer.byteLength(chunk));
      yield chunk;
      chunk = '';
    }
    chunk += line;
    if (chunk.length < chunkBytes) continue;
    await pacer.take(Buffer.byteLength(chunk));
    yield chunk;
    chunk = '';
  }
  if (chunk !== '') {
    await pacer.take(Buffer.byteLength(chunk));
    yield chunk;
  }
}
