/**
 * `GET /api/market/stream` (docs/decisions.md#d11), fanned out by one hub per process: each new
 * event of a topic (a snapshot kind) is read once from its history stream, framed once, and the
 * same bytes written to every client of the topic. A client resuming with `Last-Event-ID` is
 * replayed what followed, at its own pace, while live events wait in its queue (sent only if
 * newer). Further behind than `resumeMaxEvents`, it gets the current state once, marked
 * `"gap":true`: a resume from days back would otherwise be the whole retention.
 */
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import { lastId, readAfter, readNewestAfter, type HistoryEntry } from '../../../../shared/history/history-store.js';
import { historyKeys } from '../../../../shared/snapshot-keys.js';
import type { Logger } from '../../../../shared/logger.js';
import { SNAPSHOTS, type SnapshotName } from '../../../../shared/snapshot-kinds.js';
import { clientGroup, DEFAULT_IPV6_PREFIX } from '../http/client-address.js';
import type { SnapshotWatch } from '../market/snapshot-watch.js';

export type Topic = SnapshotName;
export const TOPICS = SNAPSHOTS;

const streamOf = (topic: Topic) => historyKeys.events(topic);

export interface StreamHubOptions {
  redis: Redis;
  watch: SnapshotWatch;
  logger: Logger;
  /** STREAM_MAX_CLIENTS, STREAM_MAX_CLIENTS_PER_ADDRESS (default none) and IPV6_SUBNET_PREFIX (default /64). */
  maxClients: number;
  maxClientsPerAddress?: number;
  ipv6Prefix?: number;
  /** A comment line this often: Heroku's router cuts a connection idle for 55 s. Default 15 s. */
  keepAliveMs?: number;
  /** The `retry:` hint, ms before a client reconnects. Default 2000. */
  retryMs?: number;
  /** A client whose unsent bytes pass this is dropped, not buffered without limit. Default 1 MiB. */
  maxBufferedBytes?: number;
  /** STREAM_RESUME_MAX_EVENTS. Default 10. */
  resumeMaxEvents?: number;
  /** A topic's current state when its events are changes (current-state.ts); else its newest event is. */
  currentState?: (topic: Topic) => { atMs: number; body: string } | undefined;
}

interface Frame {
  topic: Topic;
  /** The stream entry's ID, `<ms>-<seq>`. */
  id: string;
  bytes: Buffer;
}

interface Client {
  res: ServerResponse;
  topics: ReadonlySet<Topic>;
  /** The last entry ID sent, per topic. */
  cursor: Map<Topic, string>;
  /** Live frames held while the replay runs; null once live. */
  pending: Frame[] | null;
}

/** Entries read per stream and round trip, during a replay and a pull. */
const PAGE = 100;

/** Orders stream IDs (`<ms>-<seq>`) numerically. */
function compareIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am - bm || as - bs;
}

function frame(topic: Topic, entry: HistoryEntry): Frame {
  const text = `id: ${entry.atMs}\nevent: ${topic}\ndata: ${entry.fields.b ?? '{}'}\n\n`;
  return { topic, id: entry.id, bytes: Buffer.from(text) };
}

export class StreamHub {
  private readonly clients = new Set<Client>();
  private readonly perAddress = new Map<string, number>();
  private readonly lastIds = new Map<Topic, string>();
  private readonly pulls = new Map<Topic, Promise<void>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly keepAlive = Buffer.from(': keep-alive\n\n');
  private closed = false;
  private sweepQueued = false;
  /** Clients dropped for falling behind. */
  dropped = 0;

  constructor(private readonly options: StreamHubOptions) {}

  get size(): number {
    return this.clients.size;
  }

  /** Why a new client (from `address`) cannot be taken now, or null. */
  refusal(address: string): 'closing' | 'full' | 'address-full' | null {
    if (this.closed) return 'closing';
    if (this.clients.size >= this.options.maxClients) return 'full';
    return (this.perAddress.get(this.groupOf(address)) ?? 0) >= (this.options.maxClientsPerAddress ?? Infinity) ? 'address-full' : null;
  }

  private groupOf(address: string): string {
    return clientGroup(address, this.options.ipv6Prefix ?? DEFAULT_IPV6_PREFIX);
  }

  /**
   * Starts fanning out. Resolves once it knows where each stream ends; until then (Redis not
   * reachable yet) it sends nothing, so an old event is never taken for a new one.
   */
  async start(): Promise<void> {
    // Also keeps lastIds current while nobody listens: a new client starts from them.
    this.options.watch.on('landed', (topic) => this.pull(topic));
    this.timers.push(setInterval(() => this.broadcastAll(this.keepAlive), this.options.keepAliveMs ?? 15_000).unref());
    const { redis } = this.options;
    while (!this.closed) {
      try {
        if (redis.status !== 'ready') await once(redis, 'ready');
        const ends = await Promise.all(TOPICS.map((topic) => lastId(redis, streamOf(topic))));
        TOPICS.forEach((topic, i) => this.lastIds.set(topic, ends[i]!));
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  /** Takes over a response: the replay after `lastEventMs` if given, then the live feed. The caller has checked refusal(). */
  async add(
    req: IncomingMessage,
    res: ServerResponse,
    topics: ReadonlySet<Topic>,
    lastEventMs: number | undefined,
    address: string,
  ): Promise<void> {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
      // The socket serves this stream only: when the stream ends (shutdown), the socket goes too.
      Connection: 'close',
    });
    res.write(`retry: ${this.options.retryMs ?? 2000}\n\n`);
    req.socket.setNoDelay(true);
    const replaying = lastEventMs !== undefined;
    const cursor = new Map([...topics].map((topic) => [topic, replaying ? `${lastEventMs}-0` : (this.lastIds.get(topic) ?? '0-0')]));
    const client: Client = { res, topics, cursor, pending: replaying ? [] : null };
    this.clients.add(client);
    const group = this.groupOf(address);
    this.perAddress.set(group, (this.perAddress.get(group) ?? 0) + 1);
    res.once('close', () => {
      this.clients.delete(client);
      const left = (this.perAddress.get(group) ?? 1) - 1;
      if (left === 0) this.perAddress.delete(group);
      else this.perAddress.set(group, left);
    });
    if (!replaying) return;
    try {
      await this.replay(client);
    } catch (error) {
      this.options.logger.warn({ err: String(error) }, 'stream replay failed; the client will reconnect');
      res.destroy();
      return;
    }
    const pending = client.pending ?? [];
    client.pending = null;
    for (const held of pending) this.deliver(client, held);
  }

  /** Sends every stored event after the client's cursors, merged across topics in id order, minding backpressure. */
  private async replay(client: Client): Promise<void> {
    const queues = await Promise.all([...client.topics].map((topic) => this.resumeQueue(topic, client.cursor.get(topic) ?? '0-0')));
    for (;;) {
      await Promise.all(
        queues
          .filter((q) => q.buffer.length === 0 && !q.done)
          .map(async (q) => {
            q.buffer = await readAfter(this.options.redis, streamOf(q.topic), q.after, PAGE);
            q.done = q.buffer.length < PAGE;
            if (q.buffer.length > 0) q.after = q.buffer.at(-1)!.id;
          }),
      );
      let next: (typeof queues)[number] | undefined;
      for (const q of queues) if (q.buffer[0] && (!next || compareIds(q.buffer[0].id, next.buffer[0]!.id) < 0)) next = q;
      // Ended by shutdown, or gone: a write after end would be an 'error' nobody listens for.
      if (!next || client.res.destroyed || client.res.writableEnded) return;
      const entry = next.buffer.shift()!;
      client.cursor.set(next.topic, entry.id);
      if (!client.res.write(frame(next.topic, entry).bytes)) {
        await new Promise<void>((resolve) => {
          client.res.once('drain', resolve);
          client.res.once('close', resolve);
        });
      }
    }
  }

  /** Every entry after `after` if there are at most resumeMaxEvents (one round trip), else the current state marked `"gap":true`. */
  private async resumeQueue(topic: Topic, after: string) {
    const max = this.options.resumeMaxEvents ?? 10;
    const newest = await readNewestAfter(this.options.redis, streamOf(topic), after, max + 1);
    if (newest.length <= max) return { topic, after, buffer: newest.reverse(), done: true };
    const state = this.options.currentState?.(topic) ?? { atMs: newest[0]!.atMs, body: newest[0]!.fields.b ?? '{}' };
    const id = `${state.atMs}-0`;
    const body = state.body.length > 2 ? `{"gap":true,${state.body.slice(1)}` : '{"gap":true}';
    return { topic, after: id, buffer: [{ atMs: state.atMs, id, fields: { b: body } }], done: false };
  }

  /** Reads what is new in one topic's stream and fans it out; pulls of one topic never overlap. */
  private pull(topic: Topic): void {
    const previous = this.pulls.get(topic) ?? Promise.resolve();
    const next = previous.then(async () => {
      if (!this.lastIds.has(topic)) return; // start() has not found where the stream ends yet
      for (;;) {
        const entries = await readAfter(this.options.redis, streamOf(topic), this.lastIds.get(topic) ?? '0-0', PAGE);
        for (const entry of entries) {
          this.lastIds.set(topic, entry.id);
          const built = frame(topic, entry);
          for (const client of this.clients) this.deliver(client, built);
        }
        if (entries.length < PAGE) return;
      }
    });
    const settled = next.catch((error: unknown) => this.options.logger.debug({ err: String(error), topic }, 'stream pull failed'));
    this.pulls.set(topic, settled);
    void settled.finally(() => {
      if (this.pulls.get(topic) === settled) this.pulls.delete(topic);
    });
  }

  private deliver(client: Client, built: Frame): void {
    if (!client.topics.has(built.topic)) return;
    if (client.pending) {
      client.pending.push(built);
      return;
    }
    if (compareIds(built.id, client.cursor.get(built.topic) ?? '0-0') <= 0) return;
    client.cursor.set(built.topic, built.id);
    this.write(client, built.bytes);
  }

  private broadcastAll(bytes: Buffer): void {
    for (const client of this.clients) if (!client.pending) this.write(client, bytes);
  }

  /** Writes never wait: a client that cannot keep up is found by the sweep and cut loose. */
  private write(client: Client, bytes: Buffer): void {
    if (client.res.destroyed || client.res.writableEnded) return;
    client.res.write(bytes);
    if (!this.sweepQueued) {
      this.sweepQueued = true;
      setImmediate(() => this.sweep());
    }
  }

  /**
   * Drops every client whose unsent bytes pass the bound. It runs after the burst of writes has
   * been handed to the kernel (a response corks its socket until the next tick, so right after a
   * write even a fast client looks full): what is left then is what the client did not take.
   */
  private sweep(): void {
    this.sweepQueued = false;
    const bound = this.options.maxBufferedBytes ?? 1024 * 1024;
    for (const client of this.clients) {
      if (client.res.writableLength > bound) {
        this.dropped += 1;
        this.clients.delete(client);
        client.res.destroy();
      }
    }
  }

  /** Shutdown: ends every stream cleanly (clients reconnect elsewhere) and refuses new ones; before the drain, which a stream would hold to its deadline. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const client of this.clients) client.res.end();
    this.clients.clear();
  }
}
