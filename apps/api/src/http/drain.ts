/**
 * Zero-error draining on deploy. Closing an idle keep-alive socket races a client writing its
 * next request on it (undici's UND_ERR_SOCKET for a request already sent): what `server.close()`
 * (Node 19+), http-terminator and @godaddy/terminus all do. Here the server stops accepting,
 * answers everything with `Connection: close` so each client leaves after its next response, and
 * closes a socket itself only once idle for `idleCloseMs` (not a poller) or at the deadline.
 *
 * Idle is what the sweeps see: from the first sweep that finds a socket idle (a response is ended
 * before its bytes leave), and a late sweep (the process was stalled) closes nothing: timers run
 * before the poll phase, so a request that arrived meanwhile is unread and the socket only looks idle.
 */
import { Server as NetServer, type Socket } from 'node:net';
import type { RequestListener, Server, ServerResponse } from 'node:http';

interface Connection {
  /** The latest response: in progress until writableFinished. */
  response: ServerResponse | undefined;
  idleSince: number;
  /** While draining: the response a sweep last found idle on this socket, and when it first did. */
  idleSeen?: { response: ServerResponse | undefined; at: number };
  /** The response (undefined: client-errors.ts' raw answer) whose unsent bytes armed the write timeout. */
  writeWatched?: { response: ServerResponse | undefined };
}

/** How often the drain looks at the sockets. */
const SWEEP_MS = 50;
/** A sweep this late after the previous one ran after a stall: it only looks (see above). */
const LATE_SWEEP_MS = 500;

export interface DrainOptions {
  /** Give up waiting and cut every socket after this long. */
  deadlineMs: number;
  /** An idle socket is closed once it has been idle this long while draining. */
  idleCloseMs: number;
}

export interface DrainTracker {
  /** Wraps the app's listener so every request is tracked (and marked `close` while draining). */
  wrap(listener: RequestListener): RequestListener;
  /** Stops accepting and resolves once every socket is gone (or at the deadline). */
  drain(options: DrainOptions): Promise<void>;
  readonly draining: boolean;
  /** Open sockets, the one just accepted included. */
  readonly connections: number;
  /**
   * Cuts a response whose client stopped reading: once a second, a socket with unsent bytes gets a
   * socket timeout of `writeTimeoutMs`, which counts only a lack of progress (a slow reader is never
   * cut). Node replaces it with the keep-alive timeout once the response is sent; an event stream
   * that caught up is disarmed. Nothing is added per request.
   */
  watchWrites(writeTimeoutMs: number): void;
}

export function trackConnections(server: Server): DrainTracker {
  const connections = new Map<Socket, Connection>();
  let draining = false;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { response: undefined, idleSince: Date.now() });
    socket.once('close', () => connections.delete(socket));
  });

  return {
    get draining() {
      return draining;
    },
    get connections() {
      return connections.size;
    },
    watchWrites(writeTimeoutMs) {
      const check = () => {
        for (const [socket, connection] of connections) {
          const { response, writeWatched } = connection;
          if (socket.writableLength > 0 && (!writeWatched || writeWatched.response !== response)) {
            connection.writeWatched = { response };
            socket.setTimeout(writeTimeoutMs);
          } else if (
            socket.writableLength === 0 &&
            writeWatched &&
            response &&
            writeWatched.response === response &&
            !response.writableEnded
          ) {
            // A stream that caught up: quiet between its events is not a stall.
            connection.writeWatched = undefined;
            socket.setTimeout(0);
          }
        }
      };
      const timer = setInterval(check, 1000).unref();
      server.once('close', () => clearInterval(timer));
    },
    wrap(listener) {
      return (req, res) => {
        const connection = connections.get(req.socket);
        if (draining) res.setHeader('Connection', 'close');
        if (connection) connection.response = res;
        listener(req, res);
        if (!connection) return;
        // A cached read is answered before the listener returns: no listener to add for it (the
        // sweeps wait for its bytes to be flushed, and count it idle only from then: idleFor).
        if (res.writableEnded) connection.idleSince = Date.now();
        else
          res.once('close', () => {
            if (connection.response !== res) return;
            connection.response = undefined;
            connection.idleSince = Date.now();
          });
      };
    },
    async drain({ deadlineMs, idleCloseMs }) {
      draining = true;
      // net.Server's close stops accepting without http.Server's closeIdleConnections().
      const listenerClosed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      for (const { response } of connections.values()) {
        if (response && !response.headersSent) response.setHeader('Connection', 'close');
      }
      const deadline = Date.now() + deadlineMs;
      let previousSweep = Date.now();
      await new Promise<void>((resolve) => {
        const sweep = () => {
          const now = Date.now();
          const late = now - previousSweep > LATE_SWEEP_MS;
          previousSweep = now;
          for (const [socket, connection] of connections) {
            if (now >= deadline || (!late && idleFor(connection, now) >= idleCloseMs)) socket.destroy();
          }
          if (connections.size === 0 || now >= deadline) resolve();
          else setTimeout(sweep, SWEEP_MS);
        };
        sweep();
      });
      await listenerClosed;
    },
  };
}

/** How long the sweeps have seen `connection` idle with its current response (0 when busy or newly idle). */
function idleFor(connection: Connection, now: number): number {
  const { response } = connection;
  if (response !== undefined && !response.writableFinished) {
    connection.idleSeen = undefined;
    return 0;
  }
  if (!connection.idleSeen || connection.idleSeen.response !== response) {
    connection.idleSeen = { response, at: now };
    return 0;
  }
  return now - Math.max(connection.idleSeen.at, connection.idleSince);
}
