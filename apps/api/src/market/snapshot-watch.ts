/**
 * Tells the snapshot cache and the stream hub that a refresh landed: the worker's announcements,
 * and every version read once a second for one lost during a reconnect. An absent snapshot (null)
 * is reported at every check, so the cache asks for a rebuild until one lands.
 */
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { snapshotChannel } from '../../../../shared/keyspace.js';
import type { Logger } from '../../../../shared/logger.js';
import { SNAPSHOTS, type SnapshotName } from '../../../../shared/snapshot-kinds.js';
import { readSnapshotVersions } from '../../../../shared/snapshot-store.js';

export interface SnapshotWatchOptions {
  redis: Redis;
  /** A connection of its own for SUBSCRIBE. */
  subscriber: Redis;
  logger: Logger;
}

const POLL_MS = 1000;

export class SnapshotWatch extends EventEmitter<{ landed: [name: SnapshotName, version: string | null] }> {
  private readonly seen = new Map<SnapshotName, string | null>();
  private checking: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: SnapshotWatchOptions) {
    super();
  }

  async start(): Promise<void> {
    this.options.subscriber.on('message', (channel: string, name: string) => {
      if (channel === snapshotChannel() && (SNAPSHOTS as readonly string[]).includes(name)) void this.check();
    });
    this.timer = setInterval(() => void this.check(), POLL_MS).unref();
    await this.options.subscriber.subscribe(snapshotChannel());
  }

  /** Reads every version (one round trip) and reports what changed; calls during a read make one more read after it. */
  check(): Promise<void> {
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.checking = this.read().finally(() => {
      this.checking = undefined;
      if (this.again) {
        this.again = false;
        void this.check();
      }
    });
    return this.checking;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async read(): Promise<void> {
    let versions: (string | null)[];
    try {
      versions = await readSnapshotVersions(this.options.redis, SNAPSHOTS);
    } catch (error) {
      this.options.logger.debug({ err: String(error) }, 'snapshot version check failed; retrying');
      return;
    }
    SNAPSHOTS.forEach((name, i) => {
      const version = versions[i] ?? null;
      if (version !== null && this.seen.get(name) === version) return;
      this.seen.set(name, version);
      this.emit('landed', name, version);
    });
  }
}
