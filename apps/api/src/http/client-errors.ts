/**
 * Requests Node's parser refuses before any listener (and CONNECT, and an Expect other than
 * 100-continue), which Node answers with a bare status line: here they get the `{ "error" }` body
 * like every other error, then the connection closes (the parser cannot resynchronise).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Node's error codes that mean something other than "bad request"; everything else is a 400. */
const ANSWERS: Readonly<Record<string, readonly [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'Request header fields too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout'],
};
const BAD_REQUEST = [400, 'Bad request'] as const;

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  404: 'Not Found',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
};

/** A complete HTTP/1.1 response that closes the connection. */
function rawErrorResponse(status: number, message: string): Buffer {
  const body = JSON.stringify({ error: message });
  return Buffer.from(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}

export function installClientErrorHandler(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The response in flight on this socket, if any (Node's own handler checks the same):
    // once its headers are out, writing another response would corrupt the stream.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, message] = ANSWERS[error.code ?? ''] ?? BAD_REQUEST;
    socket.end(rawErrorResponse(status, message), () => socket.destroy());
  });

  // CONNECT never reaches the request listener: without a 'connect' listener Node closes the
  // socket in silence. Its target is a host:port, never one of our paths, so it gets the JSON
  // 404 any unknown path gets.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(rawErrorResponse(404, 'Not found'), () => socket.destroy());
  });

  // Emitted for an Expect header other than 100-continue; without a listener Node sends an
  // empty 417. The body the client meant to send may follow, so the connection closes too.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({ error: 'Expectation failed' });
    res.shouldKeepAlive = false;
    res.writeHead(417, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      'Cache-Control': 'no-store',
      Connection: 'close',
    });
    res.end(body);
  });
}
