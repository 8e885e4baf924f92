/** A minimal server-sent-events client for the tests: raw node:http, every event and comment kept. */
import { request, type IncomingHttpHeaders } from 'node:http';

export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
  /** When it arrived (ms since epoch). */
  at: number;
}

export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  retry: number | undefined;
  /** Resolves when the server ends the stream (or the socket closes). */
  readonly ended: Promise<void>;
  private buffered = '';
  private endedResolve!: () => void;
  private destroyRequest: () => void = () => {};

  private constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    readonly body: string,
  ) {
    this.ended = new Promise((resolve) => (this.endedResolve = resolve));
  }

  /** Connects; for a non-200 answer the body is read whole and the client is already ended. */
  static connect(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = request(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
        res.setEncoding('utf8');
        if (res.statusCode !== 200) {
          let body = '';
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => {
            const client = new SseClient(res.statusCode ?? 0, res.headers, body);
            client.endedResolve();
            resolve(client);
          });
          return;
        }
        const client = new SseClient(200, res.headers, '');
        client.destroyRequest = () => req.destroy();
        res.on('data', (chunk: string) => client.feed(chunk));
        res.on('close', () => client.endedResolve());
        res.on('error', () => client.endedResolve());
        resolve(client);
      });
      req.on('error', reject);
      req.end();
    });
  }

  private feed(chunk: string): void {
    this.buffered += chunk;
    let end: number;
    while ((end = this.buffered.indexOf('\n\n')) !== -1) {
      const block = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 2);
      let id: string | undefined;
      let event = 'message';
      const data: string[] = [];
      let isEvent = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
        else if (line.startsWith('retry: ')) this.retry = Number(line.slice(7));
        else if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) {
          data.push(line.slice(6));
          isEvent = true;
        }
      }
      if (isEvent) this.events.push({ id, event, data: data.join('\n'), at: Date.now() });
    }
  }

  /** Waits until `count` events of `kind` (any kind when omitted) have arrived. */
  async waitFor(count: number, kind?: string, timeoutMs = 10_000): Promise<SseEvent[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const matching = this.events.filter((e) => kind === undefined || e.event === kind);
      if (matching.length >= count) return matching;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} ${kind ?? ''} event(s); got ${matching.length}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): void {
    this.destroyRequest();
  }
}
