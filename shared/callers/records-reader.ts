/**
 * Reads the callers' day lists (docs/decisions.md#callers) and keeps them: each day's list is
 * appended only, so after the first read only its new entries are asked for (LRANGE from the
 * length held). A list found shorter than held (Redis emptied) is read again whole.
 */
import type { Redis } from 'ioredis';
import { callersKeys } from '../keyspace.js';
import { execChecked } from '../redis-results.js';
import { DAY_MS } from '../durations.js';
import { dayOf, decodeBreakout, decodeCall, keptAfterDayMs, type BreakoutRecord, type CallRecord } from './records.js';

interface Day {
  calls: CallRecord[];
  callLines: number;
  breakouts: BreakoutRecord[];
  breakoutLines: number;
}

export interface HeldRecords {
  calls: CallRecord[];
  breakouts: BreakoutRecord[];
  /** The start of the oldest day kept (ms). */
  sinceMs: number;
}

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
    const read = this.redis.pipeline();
    const plan: { day: number; calls: number; breakouts: number }[] = [];
    wanted.forEach((day, index) => {
      const held = this.days.get(day);
      const [calls, breakouts] = [lengths[2 * index] ?? 0, lengths[2 * index + 1] ?? 0];
      const fromCalls = held && held.callLines <= calls ? held.callLines : 0;
      const fromBreakouts = held && held.breakoutLines <= breakouts ? held.breakoutLines : 0;
      if (fromCalls === calls && fromBreakouts === breakouts && held) return;
      read.lrange(callersKeys.calls(day), fromCalls, calls - 1).lrange(callersKeys.breakouts(day), fromBreakouts, breakouts - 1);
      plan.push({ day, calls: fromCalls, breakouts: fromBreakouts });
    });
    const replies = plan.length > 0 ? ((await execChecked(read)) as string[][]) : [];
    plan.forEach(({ day, calls, breakouts }, index) => {
      const held = this.days.get(day);
      const callLines = replies[2 * index] ?? [];
      const breakoutLines = replies[2 * index + 1] ?? [];
      this.days.set(day, {
        calls: [...(calls > 0 && held ? held.calls : []), ...callLines.flatMap((line) => decodeCall(line) ?? [])],
        callLines: calls + callLines.length,
        breakouts: [...(breakouts > 0 && held ? held.breakouts : []), ...breakoutLines.flatMap((line) => decodeBreakout(line) ?? [])],
        breakoutLines: breakouts + breakoutLines.length,
      });
    });
    const kept = [...this.days.values()];
    return { calls: kept.flatMap((day) => day.calls), breakouts: kept.flatMap((day) => day.breakouts), sinceMs: first };
  }
}
