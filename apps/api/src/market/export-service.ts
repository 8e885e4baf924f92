/**
 * GET /api/export: every stored state of some kinds in a range, streamed oldest first as NDJSON
 * or CSV (shared/history/export-states.ts pages it from Redis). A range costs its size, in
 * kind-days, from the user's hourly export budget: a month of five kinds is 150. Every export of
 * the process is paced together (export-pacing.ts), so reads keep their rate while one streams.
 */
import type { ParsedUrlQuery } from 'node:querystring';
import { Readable } from 'node:stream';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { BadRequestError, RateLimitedError } from '../../../../shared/errors.js';
import { EXPORT_KINDS, exportStates, type ExportedState, type ExportKind } from '../../../../shared/history/export-states.js';
import { keys } from '../../../../shared/keyspace.js';
import { execChecked } from '../../../../shared/redis-results.js';
import { HistoryQuerySchema, parseInstant } from './market-queries.js';
import { DAY_MS } from '../../../../shared/durations.js';
import { ExportPacer, pacedChunks } from './export-pacing.js';

export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** Kind-days each user may export per hour: a 30-day export of every kind (150) and a few smaller ones. */
export const EXPORT_BUDGET_KIND_DAYS = 400;
export const EXPORT_BUDGET_WINDOW_SECONDS = 3600;

export const ExportQuerySchema = z.object({
  kinds: z
    .string()
    // As many names as there are kinds, each at most 12 characters and a comma.
    .max(EXPORT_KINDS.length * 13)
    .regex(new RegExp(`^(${EXPORT_KINDS.join('|')})(,(${EXPORT_KINDS.join('|')})){0,${EXPORT_KINDS.length - 1}}$`))
    .optional()
    .meta({ description: `Comma-separated kinds: ${EXPORT_KINDS.join(', ')}. Default all.` }),
  from: HistoryQuerySchema.shape.from.meta({
    description: 'The first instant, inclusive (ISO 8601: a date, or a date and time with Z or an offset). Default: 24 h before `to`.',
  }),
  to: HistoryQuerySchema.shape.to.meta({ description: 'The last instant, inclusive. Default: now. `from` after `to` is a 400.' }),
  format: z.enum(EXPORT_FORMATS).optional().meta({ description: 'ndjson (the default) or csv.' }),
});

export interface ExportQuery {
  kinds: readonly ExportKind[];
  fromMs: number;
  toMs: number;
  format: ExportFormat;
}

const one = (raw: string | string[] | undefined) => (Array.isArray(raw) ? undefined : raw);

export function parseExportQuery(query: ParsedUrlQuery, now = Date.now()): ExportQuery {
  const rawKinds = one(query.kinds);
  const kinds = rawKinds === undefined ? [...EXPORT_KINDS] : rawKinds.split(',');
  if (rawKinds === '' || !kinds.every((kind) => (EXPORT_KINDS as readonly string[]).includes(kind)))
    throw new BadRequestError(`Invalid query parameter: kinds: comma-separated, from ${EXPORT_KINDS.join(', ')}`);
  const givenFrom = parseInstant(query.from, 'from');
  // Without `to`, up to now: a `from` in the future is an empty range, not a 400.
  const toMs = parseInstant(query.to, 'to') ?? Math.max(now, givenFrom ?? now);
  const fromMs = givenFrom ?? toMs - DAY_MS;
  if (fromMs > toMs) throw new BadRequestError('Invalid range: from is after to');
  const format = one(query.format) ?? 'ndjson';
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    throw new BadRequestError(`Invalid query parameter: format: one of ${EXPORT_FORMATS.join(', ')}`);
  return { kinds: [...new Set(kinds)] as ExportKind[], fromMs, toMs, format: format as ExportFormat };
}

/** One state as an NDJSON line: the stored body goes in as it is, byte for byte. */
function ndjsonLine(state: ExportedState): string {
  return `{"kind":"${state.kind}","id":"${state.id}","cachedAt":"${new Date(state.atMs).toISOString()}","state":${state.body}}\n`;
}
const CSV_HEADER = 'kind,id,cachedAt,state\n';
function csvLine(state: ExportedState): string {
  return `${state.kind},${state.id},${new Date(state.atMs).toISOString()},"${state.body.replaceAll('"', '""')}"\n`;
}

export const EXPORT_CONTENT_TYPES: Readonly<Record<ExportFormat, string>> = {
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

export class ExportService {
  constructor(
    private readonly redis: Redis,
    /** HISTORY_DAYS in ms: older entries are not served, as `?at=` does not serve them. */
    private readonly retentionMs: number,
    // A whole retention's export of every kind always fits once (HISTORY_DAYS may be up to 366).
    private readonly budget = Math.max(EXPORT_BUDGET_KIND_DAYS, EXPORT_KINDS.length * (Math.ceil(retentionMs / DAY_MS) + 1)),
    /** One for the process: the rate is shared by every export running. */
    private readonly pacer = new ExportPacer(),
  ) {}

  /** The range clipped to retention, charged to the user's budget (429 with Retry-After when spent), as a byte stream. */
  async open(userId: string, query: ExportQuery, now = Date.now()): Promise<Readable> {
    const fromMs = Math.max(query.fromMs, now - this.retentionMs);
    await this.charge(userId, query.kinds.length * Math.max(1, Math.ceil((query.toMs - fromMs) / DAY_MS)));
    const states = exportStates(this.redis, query.kinds, fromMs, query.toMs);
    const line = query.format === 'csv' ? csvLine : ndjsonLine;
    async function* lines(): AsyncGenerator<string> {
      if (query.format === 'csv') yield CSV_HEADER;
      for await (const state of states) yield line(state);
    }
    // Strings, not Buffers, down to the socket: a Buffer per chunk is garbage that waits for a major
    // GC (in-process, a 105 MB export grew RSS 54 MB with Buffers, 30-39 MB with strings), while
    // the socket's copy of a string is freed once written. One chunk read ahead: a slow client
    // holds 64 KB here, not 16 chunks (an object stream's default).
    return Readable.from(pacedChunks(lines(), this.pacer), { objectMode: true, highWaterMark: 1 });
  }

  private async charge(userId: string, cost: number): Promise<void> {
    const key = keys.exportBudget(userId);
    const [spent, ttl] = (await execChecked(
      this.redis.multi().incrby(key, cost).expire(key, EXPORT_BUDGET_WINDOW_SECONDS, 'NX').ttl(key),
    )) as [number, number, number];
    if (spent <= this.budget) return;
    // Not spent after all: the refused range leaves the budget as it was.
    await this.redis.decrby(key, cost);
    throw new RateLimitedError(
      `Export budget spent: ${this.budget} kind-days per hour, this range costs ${cost}`,
      ttl > 0 ? ttl : EXPORT_BUDGET_WINDOW_SECONDS,
    );
  }
}
