/**
 * The deploy drain (apps/api/src/http/drain.ts) against a keep-alive client on a raw socket: a
 * request the client has already sent is answered (with Connection: close), never cut by the
 * drain's closing of idle sockets, even when this process stalls as it arrives.
 */
import { expect } from 'chai';
import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { startWebServer, stopWebServer } from '../../../apps/api/src/server.js';
import { parseResponse } from '../../support/raw-http.js';

const REQUEST = 'GET /poll HTTP/1.1\r\nHost: drain\r\n\r\n';

/** A listener that answers synchronously, as the fast path answers a cached read. */
const answerAtOnce = (
  _req: unknown,
  res: { writeHead(status: number, headers: Record<string, string>): void; end(body: string): void },
) => {
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '2' });
  res.end('ok');
};

/** Reads one whole response (a 2-byte body) off the socket, or what came before it closed. */
function nextResponse(socket: Socket): Promise<{ raw: Buffer; closedEarly: boolean }> {
  return new Promise((resolve) => {
    let raw = Buffer.alloc(0);
    const done = (closedEarly: boolean) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve({ raw, closedEarly });
    };
    const onData = (chunk: Buffer) => {
      raw = Buffer.concat([raw, chunk]);
      const headEnd = raw.indexOf('\r\n\r\n');
      if (headEnd !== -1 && raw.length >= headEnd + 4 + 2) done(false);
    };
    const onClose = () => done(true);
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}

/** Keeps this process busy, as a starved or paused process is: no timer and no I/O runs meanwhile. */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin
  }
}

describe('drain: closing idle keep-alive sockets on deploy', () => {
  let server: Server;
  let socket: Socket;

  beforeEach(async () => {
    server = await startWebServer(answerAtOnce, 0, '127.0.0.1');
    const { port } = server.address() as AddressInfo;
    socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
  });
  afterEach(async () => {
    socket.destroy();
    if (server.listening) await stopWebServer(server, { deadlineMs: 100 });
  });

  it('when the next request arrives while this process is stalled past the idle limit, then it is answered with Connection: close, not reset', async () => {
    socket.write(REQUEST);
    const first = await nextResponse(socket);
    expect(parseResponse(first.raw).status).to.equal(200);

    const drained = stopWebServer(server, { deadlineMs: 10_000, idleCloseMs: 300 });
    // The client sends its next request at once (it reaches the kernel now), and this process
    // then stalls for longer than the idle limit before it can read it.
    const second = nextResponse(socket);
    socket.write(REQUEST);
    stall(800);

    const answer = await second;
    expect(answer.closedEarly, 'the socket was closed under a request already sent').to.equal(false);
    const parsed = parseResponse(answer.raw);
    expect(parsed.status).to.equal(200);
    expect(parsed.headers.connection).to.equal('close');
    await drained;
  });

  it('when a keep-alive client stays quiet while draining, then its socket is closed after the idle limit, well before the deadline', async () => {
    socket.write(REQUEST);
    await nextResponse(socket);
    const started = Date.now();
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await stopWebServer(server, { deadlineMs: 10_000, idleCloseMs: 300 });
    await closed;
    expect(Date.now() - started).to.be.within(250, 2000);
  });
});
