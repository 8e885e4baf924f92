/** Listening, limits against slow and greedy clients, and zero-error draining; shared by main() and the tests. */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../../../shared/config.js';
import { clientGroup, DEFAULT_IPV6_PREFIX } from './http/client-address.js';
import { installClientErrorHandler } from './http/client-errors.js';
import { trackConnections, type DrainOptions, type DrainTracker } from './http/drain.js';

export interface WebServerLimits {
  /** Open connections per process; one more is answered 503 and closed. */
  maxConnections: number;
  /** Open connections per client (clientGroup of the socket's peer), the same way; undefined for none. */
  maxConnectionsPerAddress?: number | undefined;
  /** IPV6_SUBNET_PREFIX. Default /64. */
  ipv6Prefix?: number;
  /** A response whose client takes none of its bytes for this long is cut (DrainTracker.watchWrites). */
  writeTimeoutMs: number;
}

export const DEFAULT_LIMITS: WebServerLimits = { maxConnections: 4096, maxConnectionsPerAddress: 256, writeTimeoutMs: 30_000 };

export function limitsFrom(
  config: Pick<Config, 'maxConnections' | 'maxConnectionsPerAddress' | 'writeTimeoutMs' | 'trustProxy' | 'ipv6SubnetPrefix'>,
): WebServerLimits {
  return {
    maxConnections: config.maxConnections,
    // Behind a proxy every connection comes from the proxy: a per-address cap would be the proxy's.
    maxConnectionsPerAddress: config.trustProxy ? undefined : config.maxConnectionsPerAddress,
    ipv6Prefix: config.ipv6SubnetPrefix,
    writeTimeoutMs: config.writeTimeoutMs,
  };
}

/** Heroku sends SIGKILL 30 s after SIGTERM: drain for at most 20 s, leaving time to close Redis. */
const DRAIN: DrainOptions = { deadlineMs: 20_000, idleCloseMs: 5_000 };

const trackers = new WeakMap<Server, DrainTracker>();

/** How long a refused socket may take to read its 503 before it is destroyed anyway. */
const REFUSED_GRACE_MS = 1000;
const OVERLOADED = Buffer.from(
  'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: 31\r\n' +
    'X-Content-Type-Options: nosniff\r\nRetry-After: 1\r\nConnection: close\r\n\r\n{"error":"Service unavailable"}',
);

/** `peerOf`: a connection's client address (tests give loopback connections others). */
export async function startWebServer(
  listener: RequestListener,
  port: number,
  host?: string,
  limits: WebServerLimits = DEFAULT_LIMITS,
  peerOf: (socket: Socket) => string = (socket) => socket.remoteAddress ?? '',
): Promise<Server> {
  const server = createServer({
    // Slowloris: headers within 10 s, the whole request within 30 s (as Heroku's router), 16 KiB of
    // headers. None applies to sending a response: a slow download is never cut.
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
  // A refused socket is ended and then destroyed: node's HTTP server allows half-open sockets,
  // so an end() alone left it readable, counted and able to run a request for about 11 s.
  const refused = new WeakSet<Socket>();
  const refuse = (socket: Socket) => {
    refused.add(socket);
    socket.end(OVERLOADED, () => socket.destroy());
    // A client that reads nothing never lets the answer flush: it goes anyway.
    setTimeout(() => socket.destroy(), REFUSED_GRACE_MS).unref();
  };
  const admitted = tracker.wrap(listener);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (refused.has(req.socket)) {
      req.socket.destroy();
      return;
    }
    admitted(req, res);
  });
  tracker.watchWrites(limits.writeTimeoutMs);
  const perAddress = new Map<string, number>();
  // Answer rather than drop: node's own maxConnections would reset the socket without a word.
  server.on('connection', (socket: Socket) => {
    if (tracker.connections > limits.maxConnections) {
      refuse(socket);
      return;
    }
    const { maxConnectionsPerAddress } = limits;
    if (maxConnectionsPerAddress === undefined) return;
    const address = clientGroup(peerOf(socket), limits.ipv6Prefix ?? DEFAULT_IPV6_PREFIX);
    const open = (perAddress.get(address) ?? 0) + 1;
    perAddress.set(address, open);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left === 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
    if (open > maxConnectionsPerAddress) refuse(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

/** Stops accepting and drains (http/drain.ts). */
export async function stopWebServer(server: Server, options: Partial<DrainOptions> = {}): Promise<void> {
  const tracker = trackers.get(server);
  const drain = { ...DRAIN, ...options };
  if (tracker) return tracker.drain(drain);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  setTimeout(() => server.closeAllConnections(), drain.deadlineMs).unref();
  await closed;
}
