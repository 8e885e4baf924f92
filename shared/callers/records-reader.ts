/**
 * Reads the callers' day lists (docs/decisions.md#callers) and keeps them: each day's list is
 * appended only, so after the first read only its new entries are asked for (LRANGE from the
 * length held). A list found shorter than held (Redis emptied) is read again whole. Read in
 * parts, each kept as it arrives: the API's client gives a command 500 ms, and a month of calls at
 * 1,000 accounts (~300,000 lines, 25 MB) asked in one pipeline missed it on a loaded machine, every
 * time (503), since a failed read kept nothing.
 */
import type { Redis } from 'ioredis';
import { callersKeys } from '../keyspace.js';
import { execChecked } from '../redis-results.js';
import { DAY_MS } from '../durations.js';
import { dayOf, decodeBreakout, decodeCall, keptAfterDayMs, type BreakoutRecord, type CallRecord } from './records.js';

/** What is held of one day list: its records, and how many of its lines they came from. */
interface Held<T> {
  records: T[];
  lines: number;
}

interface Day {
  calls: Held<CallRecord>;
  breakouts: Held<BreakoutRecord>;
}

export interface HeldRecords {
  calls: CallRecord[];
  breakouts: BreakoutRecord[];
  /** The start of the oldest day kept (ms). */
  sinceMs: number;
}

/** Lines per LRANGE: ~400 kB of calls, a few ms for Redis. */
const LINES_PER_READ = 5000;

export class CallersRecords {
  private readonly days = new Map<number, Day>();

  constructor(
    private readonly redis: Redis,
    private readonly horizonMs: number,
  ) {}

  /** Every record of the days kept as of `nowMs`: new entries read, days past retention dropped. */
  async load(nowMs: number): Promise<HeldRecords> {
    const last = dayOf(nowMs);
    const first = dayOf(nowMs - keptAfterDayMs(this.horizonMs));
    for (const day of this.days.keys()) if (day < first) this.days.delete(day);
    const wanted: number[] = [];
    for (let day = first; day <= last; day += DAY_MS) wanted.push(day);
    const lengths = (await execChecked(
      wanted.reduce((p, day) => p.llen(callersKeys.calls(day)).llen(callersKeys.breakouts(day)), this.redis.pipeline()),
    )) as number[];
    for (const [index, day] of wanted.entries()) {
      const entry = this.days.get(day) ?? { calls: { records: [], lines: 0 }, breakouts: { records: [], lines: 0 } };
      this.days.set(day, entry);
      await this.readOn(callersKeys.calls(day), lengths[2 * index] ?? 0, entry.calls, decodeCall);
      await this.readOn(callersKeys.breakouts(day), lengths[2 * index + 1] ?? 0, entry.breakouts, decodeBreakout);
    }
    const kept = [...this.days.values()];
    return { calls: kept.flatMap((day) => day.calls.records), breakouts: kept.flatMap((day) => day.breakouts.records), sinceMs: first };
  }

  /** Appends the list's lines past those held, up to `length`, in parts; a list shorter than held is read again whole. */
  private async readOn<T>(key: string, length: number, held: Held<T>, decode: (line: string) => T | undefined): Promise<void> {
    if (held.lines > length) Object.assign(held, { records: [], lines: 0 });
    while (held.lines < length) {
      const from = held.lines;
      const lines = await this.redis.lrange(key, from, Math.min(length, from + LINES_PER_READ) - 1);
      if (lines.length === 0) break;
      // Another load read these meanwhile: it appended them.
      if (held.lines !== from) continue;
      held.records.push(...lines.flatMap((line) => decode(line) ?? []));
      held.lines += lines.length;
    }
  }
}
