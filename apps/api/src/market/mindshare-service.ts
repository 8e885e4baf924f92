/**
 * A token's mindshare over a window (docs/decisions.md#d20), from the worker's buckets. An answer
 * changes only when a news refresh lands: each is prepared once, keyed by the snapshot's version.
 */
import type { Redis } from 'ioredis';
import { mindshareKeys } from '../../../../shared/keyspace.js';
import { mindsharePoints, windowStarts, type MindshareInterval, type MindshareWindow } from '../../../../shared/mindshare.js';
import { execChecked } from '../../../../shared/redis-results.js';
import { boundedCache } from '../cache/bounded-cache.js';
import { Representation, type ReadAnswer } from '../http/representation.js';
import { secondsLeft, type SnapshotCache } from './snapshot-cache.js';

const MAX_PREPARED = 1000;

export interface MindshareQuery {
  window: MindshareWindow;
  interval: MindshareInterval;
}

export class MindshareService {
  private readonly prepared = boundedCache<string, Representation>({ max: MAX_PREPARED });

  constructor(
    private readonly redis: Redis,
    private readonly snapshots: SnapshotCache,
  ) {}

  peek(token: string, query: MindshareQuery): ReadAnswer | undefined {
    const snapshot = this.snapshots.peek('mindshare');
    const held = snapshot && this.prepared.get(preparedKey(token, snapshot.version, query));
    return held && { representation: held, maxAgeSeconds: secondsLeft(snapshot.expiresAt) };
  }

  async get(token: string, query: MindshareQuery): Promise<ReadAnswer> {
    const snapshot = await this.snapshots.get('mindshare');
    const maxAgeSeconds = secondsLeft(snapshot.expiresAt);
    const key = preparedKey(token, snapshot.version, query);
    const held = this.prepared.get(key);
    if (held) return { representation: held, maxAgeSeconds };
    const { unit, starts } = windowStarts(query.window, Date.parse(snapshot.cachedAt));
    const read = this.redis.pipeline();
    for (const startMs of starts) read.hmget(mindshareKeys.bucket(unit, startMs), 't', `m:${token}`);
    const replies = (await execChecked(read)) as (string | null)[][];
    const counts = starts.map((startMs, index) => ({
      startMs,
      total: Number(replies[index]?.[0] ?? 0),
      mentions: Number(replies[index]?.[1] ?? 0),
    }));
    const representation = Representation.json({
      token,
      window: query.window,
      interval: query.interval,
      points: mindsharePoints(counts, query.interval),
      cachedAt: snapshot.cachedAt,
    });
    this.prepared.set(key, representation);
    return { representation, maxAgeSeconds };
  }
}

function preparedKey(token: string, version: string, query: MindshareQuery): string {
  return `${token}|${version}|${query.window}|${query.interval}`;
}
