/**
 * `npm run export -- --from <date> --to <date> --format parquet --out <dir> [--kinds trending,news]`:
 * the stored history of a range as Parquet files for backtests (scripts/parquet-export.ts), read
 * from the Redis of the configuration (REDIS_URL ...). Errors: one line on stderr and exit code 1.
 */
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../shared/config.js';
import { EXPORT_KINDS, type ExportKind } from '../shared/history/export-states.js';
import { closeRedis, createRedis } from '../shared/redis.js';
import { writeParquetExport } from './parquet-export.js';

const USAGE =
  'usage: export --from <date> [--to <date>] --format parquet --out <dir> [--kinds trending,trending-cas,news,sentiment,mindshare]';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function instant(raw: string | undefined, name: string, fallback?: number): number {
  if (raw === undefined && fallback !== undefined) return fallback;
  const ms = raw === undefined || !/^\d{4}-\d{2}-\d{2}([T ].*)?$/.test(raw) ? NaN : Date.parse(raw);
  if (Number.isNaN(ms)) fail(`--${name}: an ISO 8601 date or date-time is required (${USAGE})`);
  return ms;
}

const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    format: { type: 'string', default: 'parquet' },
    out: { type: 'string' },
    kinds: { type: 'string' },
  },
});
if (values.format !== 'parquet') fail(`--format: only parquet is written to files (GET /api/export streams ndjson and csv); ${USAGE}`);
if (!values.out) fail(`--out: a directory is required; ${USAGE}`);
const kinds = (values.kinds?.split(',') ?? [...EXPORT_KINDS]) as ExportKind[];
if (!kinds.every((kind) => (EXPORT_KINDS as readonly string[]).includes(kind))) fail(`--kinds: from ${EXPORT_KINDS.join(', ')}`);
const fromMs = instant(values.from, 'from');
const toMs = instant(values.to, 'to', Date.now());
if (fromMs > toMs) fail('--from is after --to');

const config = loadConfigOrExit();
const redis = createRedis(config, 'worker', 'export', { warn() {}, info() {} });
try {
  const manifest = await writeParquetExport(redis, { kinds, fromMs, toMs, outDir: values.out });
  const total = Object.values(manifest.rows).reduce((sum, rows) => sum + rows, 0);
  process.stdout.write(`${manifest.files.length} files, ${total} rows in ${values.out} (manifest.json)\n`);
} catch (error) {
  fail(`export failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await closeRedis(redis);
}
