/**
 * Bytes over a raw TCP socket, for requests no HTTP client would send (malformed request lines,
 * odd methods, conflicting headers). Reads until the server closes or `timeoutMs` passes, then
 * parses the first response.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  /** 0 when the server sent nothing parseable (closed without a response). */
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** True when the server closed the connection before the timeout. */
  closed: boolean;
}

export function rawExchange(apiUrl: string, bytes: Buffer | string, timeoutMs = 3000): Promise<RawAnswer> {
  const { hostname, port } = new URL(apiUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseResponse(Buffer.concat(chunks)), closed });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {}); // a reset after the answer is expected
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.write(bytes);
  });
}

export function parseResponse(raw: Buffer): Omit<RawAnswer, 'closed'> {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd === -1) return { status: 0, headers: {}, body: Buffer.alloc(0) };
  const [statusLine = '', ...lines] = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(headEnd + 4);
  if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  else if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status, headers, body };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
