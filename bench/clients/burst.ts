/**
 * N simultaneous requests for one URL, each on a connection opened beforehand (so the burst
 * measures the API's answer, not 200 TCP handshakes). Prints one JSON line: every status and
 * every completion time, in ms from the moment the burst was fired.
 *
 * The requests are written as prepared bytes on plain sockets, not through node:http's client:
 * building 200 ClientRequest objects and flushing them took this process 15-30 ms on two busy
 * cores, so the last request left 15-30 ms after the burst was "fired" and that time was counted
 * against the server (and the client's CPU was taken from the server meanwhile). Here the 200
 * writes take about a millisecond. Responses are read just far enough to know their status and
 * where they end (Content-Length, or a chunked body's last chunk).
 *
 * argv[2]: JSON `{ url, warmUrl, count }`.
 */
import { connect, type Socket } from 'node:net';
import type { BurstResult } from '../lib/types.js';

const { url, warmUrl, count } = JSON.parse(process.argv[2] ?? '{}') as { url: string; warmUrl: string; count: number };
const target = new URL(url);
const warm = new URL(warmUrl);

const requestBytes = (u: URL) =>
  Buffer.from(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: keep-alive\r\nAccept: */*\r\n\r\n`);

/** One keep-alive connection that sends a prepared request and resolves with the response's status. */
class Connection {
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (status: number) => void; reject: (error: Error) => void } | undefined;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.tryComplete();
    });
    const fail = (error: Error) => this.waiting?.reject(error);
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed before the response ended')));
  }

  static open(host: string, port: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port }, () => resolve(new Connection(socket)));
      socket.once('error', reject);
    });
  }

  send(bytes: Buffer): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(bytes);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private tryComplete(): void {
    const headEnd = this.buffered.indexOf('\r\n\r\n');
    if (headEnd === -1 || !this.waiting) return;
    const head = this.buffered.subarray(0, headEnd).toString('latin1');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
    const bodyStart = headEnd + 4;
    let end: number;
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (length) {
      end = bodyStart + Number(length[1]);
      if (this.buffered.length < end) return;
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const last = this.buffered.indexOf('\r\n0\r\n\r\n', bodyStart - 2);
      if (last === -1) return;
      end = last + 7;
    } else {
      end = bodyStart; // 204/304 and friends: no body
    }
    this.buffered = this.buffered.subarray(end);
    const { resolve } = this.waiting;
    this.waiting = undefined;
    resolve(status);
  }
}

const connections = await Promise.all(Array.from({ length: count }, () => Connection.open(target.hostname, Number(target.port || 80))));
// One round trip on every connection first: the server has accepted and set each of them up.
const warmBytes = requestBytes(warm);
await Promise.all(connections.map((connection) => connection.send(warmBytes)));

const bytes = requestBytes(target);
const startedAtEpochMs = Date.now();
const started = performance.now();
const answers = await Promise.all(
  connections.map((connection) => connection.send(bytes).then((status) => ({ status, ms: performance.now() - started }))),
);
for (const connection of connections) connection.close();
const result: BurstResult = {
  openSockets: connections.length,
  startedAtEpochMs,
  statuses: answers.map((a) => a.status),
  completionMs: answers.map((a) => a.ms).sort((x, y) => x - y),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
