/**
 * The history of a range as Parquet files, one per kind and UTC day, plus manifest.json (kinds,
 * rows, SHA-256 of each file): what `npm run export` writes for pandas and pyarrow. Each file's
 * rows are GET /api/export's lines (kind, id, cachedAt, state), read a kind-day at a time.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { exportStates, type ExportKind } from '../shared/history/export-states.js';
import { DAY_MS } from '../shared/durations.js';

export interface ExportFile {
  kind: ExportKind;
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  file: string;
  rows: number;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  from: string;
  to: string;
  kinds: readonly ExportKind[];
  /** Rows per kind, over every day. */
  rows: Record<string, number>;
  files: ExportFile[];
}

/** Writes the files of [fromMs, toMs] into `outDir` (made if absent); a kind-day without a state has no file. */
export async function writeParquetExport(
  redis: Redis,
  options: { kinds: readonly ExportKind[]; fromMs: number; toMs: number; outDir: string },
): Promise<Manifest> {
  const { kinds, fromMs, toMs, outDir } = options;
  mkdirSync(outDir, { recursive: true });
  const manifest: Manifest = {
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    kinds,
    rows: Object.fromEntries(kinds.map((kind) => [kind, 0])),
    files: [],
  };
  for (const kind of kinds) {
    for (let dayStart = Math.floor(fromMs / DAY_MS) * DAY_MS; dayStart <= toMs; dayStart += DAY_MS) {
      const ids: string[] = [];
      const cachedAt: Date[] = [];
      const states: string[] = [];
      const last = Math.min(toMs, dayStart + DAY_MS - 1);
      for await (const state of exportStates(redis, [kind], Math.max(fromMs, dayStart), last)) {
        ids.push(state.id);
        cachedAt.push(new Date(state.atMs));
        states.push(state.body);
      }
      if (ids.length === 0) continue;
      const day = new Date(dayStart).toISOString().slice(0, 10);
      const buffer = Buffer.from(
        parquetWriteBuffer({
          columnData: [
            { name: 'kind', data: ids.map(() => kind), type: 'STRING' },
            { name: 'id', data: ids, type: 'STRING' },
            { name: 'cachedAt', data: cachedAt, type: 'TIMESTAMP' },
            { name: 'state', data: states, type: 'STRING' },
          ],
        }),
      );
      const file = `${kind}-${day}.parquet`;
      writeFileSync(join(outDir, file), buffer);
      manifest.files.push({
        kind,
        day,
        file,
        rows: ids.length,
        bytes: buffer.length,
        sha256: createHash('sha256').update(buffer).digest('hex'),
      });
      manifest.rows[kind] = (manifest.rows[kind] ?? 0) + ids.length;
    }
  }
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
