/** Listening, limits against slow and greedy clients, and zero-error draining; shared by main() and the tests. */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { installClientErrorHandler } from './http/client-errors.js';
import { trackConnections, type DrainOptions, type DrainTracker } from './http/drain.js';

export interface WebServerLimits {
  /** Open connections per process; one more is answered 503 and closed. */
  maxConnections: number;
}

/** Heroku sends SIGKILL 30 s after SIGTERM: drain for at most 20 s, leaving time to close Redis. */
const DRAIN: DrainOptions = { deadlineMs: 20_000, idleCloseMs: 5_000 };

const trackers = new WeakMap<Server, DrainTracker>();

const OVERLOADED = Buffer.from(
  'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: 31\r\n' +
    'Retry-After: 1\r\nConnection: close\r\n\r\n{"error":"Service unavailable"}',
);

export async function startWebServer(
  listener: RequestListener,
  port: number,
  host?: string,
  limits: WebServerLimits = { maxConnections: 4096 },
): Promise<Server> {
  const server = createServer({
    // Slowloris: a request's headers must arrive within 10 s and the whole request within 30 s
    // (Heroku's router gives up at 30 s too); headers are capped at 16 KiB. None of these
    // applies to sending a response, so a slow download is never cut.
    headersTimeout: 10_000,
    requestTimeout: 30_000,
    // How often node enforces the two above; its default (30 s) would let a slow socket live 40 s.
    connectionsCheckingInterval: 1000,
    maxHeaderSize: 16 * 1024,
    // Behind Heroku's router (55 s idle) keep-alive sockets must outlive the router's.
    keepAliveTimeout: 65_000,
  });
  installClientErrorHandler(server);
  const tracker = trackConnections(server);
  trackers.set(server, tracker);
  server.on('request', tracker.wrap(listener));
  // Answer rather than drop: node's own maxConnections would reset the socket without a word.
  server.on('connection', (socket: Socket) => {
    if (tracker.connections > limits.maxConnections) {
      socket.end(OVERLOADED);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

/**
 * Stops accepting, answers every request already received (with `Connection: close`, so
 * keep-alive clients leave), and closes each socket once no request can be in flight on it.
 */
export async function stopWebServer(server: Server, options: Partial<DrainOptions> = {}): Promise<void> {
  const tracker = trackers.get(server);
  const drain = { ...DRAIN, ...options };
  if (tracker) return tracker.drain(drain);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  setTimeout(() => server.closeAllConnections(), drain.deadlineMs).unref();
  await closed;
}
