/**
 * Zero-error draining of an HTTP server on deploy.
 *
 * Closing an idle keep-alive socket races a client that is writing its next request on it:
 * the client sees "other side closed" (undici's UND_ERR_SOCKET) for a request it had already
 * sent. That is what `server.close()` does since Node 19 (it calls closeIdleConnections()), and
 * what http-terminator and @godaddy/terminus (via stoppable) do too: both destroy idle sockets
 * at once. Here the server instead stops accepting, answers everything it receives with
 * `Connection: close`, so each client leaves by itself after its next response, and closes a
 * socket itself only when it has stayed idle for `idleCloseMs` (a client that quiet is not
 * polling) or at the deadline.
 */
import { Server as NetServer, type Socket } from 'node:net';
import type { RequestListener, Server, ServerResponse } from 'node:http';

interface Connection {
  /** The latest response: a request is in progress until it has finished (writableFinished). */
  response: ServerResponse | undefined;
  idleSince: number;
}

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
    wrap(listener) {
      return (req, res) => {
        const connection = connections.get(req.socket);
        if (draining) res.setHeader('Connection', 'close');
        if (connection) connection.response = res;
        listener(req, res);
        if (!connection) return;
        // A cached read is answered before the listener returns: no listener to add for it (the
        // sweep waits for its bytes to be flushed; idleSince is then at most the flush's length early).
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
      await new Promise<void>((resolve) => {
        const sweep = () => {
          const now = Date.now();
          for (const [socket, connection] of connections) {
            const busy = connection.response !== undefined && !connection.response.writableFinished;
            const idleTooLong = !busy && now - connection.idleSince >= idleCloseMs;
            if (idleTooLong || now >= deadline) socket.destroy();
          }
          if (connections.size === 0 || now >= deadline) resolve();
          else setTimeout(sweep, 50);
        };
        sweep();
      });
      await listenerClosed;
    },
  };
}
