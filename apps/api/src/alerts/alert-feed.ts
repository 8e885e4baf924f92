/**
 * `GET /api/alerts/stream`: each caller's own firings as server-sent events. The worker appends each
 * to its user's Redis stream and publishes the user's id; each connection of that user then reads
 * what is new after the last id it sent, so `Last-Event-ID` resumes exactly.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import { alertFiredChannel, alertKeys } from '../../../../shared/keyspace.js';
import type { Logger } from '../../../../shared/logger.js';

const KEEP_ALIVE_MS = 15_000;
const READ_BATCH = 100;

interface FeedClient {
  userId: string;
  res: ServerResponse;
  lastId: string;
  reading: boolean;
  again: boolean;
}

export interface AlertFeedOptions {
  redis: Redis;
  /** A connection of its own, for SUBSCRIBE. */
  subscriber: Redis;
  logger: Logger;
  /** Open feeds per process. */
  maxClients: number;
  /** Open feeds per user. */
  maxClientsPerUser: number;
}

export class AlertFeed {
  private readonly clients = new Set<FeedClient>();
  private readonly timer: NodeJS.Timeout;
  private closing = false;

  constructor(private readonly options: AlertFeedOptions) {
    this.timer = setInterval(() => {
      for (const client of this.clients) client.res.write(': keep-alive\n\n');
    }, KEEP_ALIVE_MS).unref();
  }

  async start(): Promise<void> {
    this.options.subscriber.on('message', (channel: string, userId: string) => {
      if (channel !== alertFiredChannel()) return;
      for (const client of this.clients) if (client.userId === userId) void this.pump(client);
    });
    await this.options.subscriber.subscribe(alertFiredChannel());
  }

  /** Why a new feed cannot be opened now, or undefined. */
  refusal(userId: string): 'full' | 'user-full' | 'closing' | undefined {
    if (this.closing) return 'closing';
    if (this.clients.size >= this.options.maxClients) return 'full';
    let mine = 0;
    for (const client of this.clients) if (client.userId === userId) mine += 1;
    return mine >= this.options.maxClientsPerUser ? 'user-full' : undefined;
  }

  /** Takes the response over: replays after `lastEventId` (or starts at the newest firing), then stays live. */
  async add(req: IncomingMessage, res: ServerResponse, userId: string, lastEventId: string | undefined): Promise<void> {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    // `reading` until the client's position is known: a firing announced meanwhile only marks it
    // to read again (a read from no position would fail and end the stream), and is sent below.
    const client: FeedClient = { userId, res, lastId: lastEventId ?? '', reading: true, again: false };
    this.clients.add(client);
    const leave = () => this.clients.delete(client);
    req.on('close', leave);
    res.on('close', leave);
    if (client.lastId === '') {
      try {
        const newest = await this.options.redis.xrevrange(alertKeys.firings(userId), '+', '-', 'COUNT', 1);
        client.lastId = newest[0]?.[0] ?? '0-0';
      } catch (error) {
        // Without the newest id, reading from the start would replay old firings as new: end, the client reconnects.
        this.options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'alert feed: no position; closing');
        leave();
        res.end();
        return;
      }
    }
    client.reading = false;
    await this.pump(client);
  }

  /** Sends what is new after the client's last id, once at a time per client. */
  private async pump(client: FeedClient): Promise<void> {
    if (client.reading) {
      client.again = true;
      return;
    }
    client.reading = true;
    try {
      do {
        client.again = false;
        for (;;) {
          const entries = await this.options.redis.xrange(alertKeys.firings(client.userId), `(${client.lastId}`, '+', 'COUNT', READ_BATCH);
          for (const [id, fields] of entries) {
            const event = fields[fields.indexOf('event') + 1] ?? '{}';
            client.res.write(`id: ${id}\nevent: alert\ndata: ${event}\n\n`);
            client.lastId = id;
          }
          if (entries.length < READ_BATCH) break;
        }
      } while (client.again && this.clients.has(client));
    } catch (error) {
      this.options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'alert feed read failed; closing the feed');
      client.res.end();
    } finally {
      client.reading = false;
    }
  }

  close(): void {
    this.closing = true;
    clearInterval(this.timer);
    for (const client of this.clients) client.res.end();
    this.clients.clear();
  }
}
