/**
 * Large answers go out in slices (apps/api/src/http/paced-body.ts), so the write timeout sees a
 * slow but steady client make progress: Node counts a write's completion as progress, and one
 * unsliced 64 MiB write to such a client was cut after the timeout in 7 of 8 runs on loopback
 * (the first large transfer on a fresh route may be taken too fast to show it, so the cut itself
 * is not asserted here). What is asserted: every write of a large body is one slice, each issued
 * after the one before was taken, and every byte arrives with the length announced, on the fast
 * path's writer, on Koa's responses and through the whole API.
 */
import { expect } from 'chai';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { endPaced, pacedBodies, SLICE_BYTES } from '../../../apps/api/src/http/paced-body.js';
import { startStack, type Stack } from '../../support/stack.js';

/** 1 MiB and a bit: 17 slices. */
const LARGE = Buffer.alloc(16 * SLICE_BYTES + 100, 'y');

interface Writes {
  sizes: number[];
  /** Bytes still queued on the socket when each write was issued. */
  queuedBefore: number[];
}

/** Records the size of every body write of `res`, and what the socket still held at the time. */
function recordWrites(res: ServerResponse, writes: Writes): void {
  const write = res.write.bind(res) as (chunk: Buffer, ...rest: unknown[]) => boolean;
  res.write = ((chunk: Buffer, ...rest: unknown[]) => {
    writes.sizes.push(chunk.length);
    writes.queuedBefore.push(res.socket?.writableLength ?? 0);
    return write(chunk, ...rest);
  }) as ServerResponse['write'];
  const end = res.end.bind(res) as (chunk?: Buffer, ...rest: unknown[]) => ServerResponse;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (Buffer.isBuffer(chunk) || typeof chunk === 'string') writes.sizes.push(Buffer.byteLength(chunk));
    return end(chunk as Buffer, ...rest);
  }) as ServerResponse['end'];
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function expectSliced(writes: Writes, length: number): void {
  expect(writes.sizes.reduce((sum, size) => sum + size, 0)).to.equal(length);
  expect(writes.sizes.length).to.equal(Math.ceil(length / SLICE_BYTES));
  expect(Math.max(...writes.sizes)).to.equal(SLICE_BYTES);
  // Paced: a slice is written once the socket has taken the one before (nothing left queued).
  expect(writes.queuedBefore.every((queued) => queued === 0)).to.equal(true, `queued: ${writes.queuedBefore.join(',')}`);
}

describe('large answers in slices (http/paced-body.ts)', function () {
  this.timeout(60_000);
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("when the fast path's writer sends 1 MiB, then it goes out in 64 KiB slices, each after the last was taken, and arrives whole", async () => {
    const writes: Writes = { sizes: [], queuedBefore: [] };
    server = createServer((req, res) => {
      recordWrites(res, writes);
      const body = req.url === '/large' ? LARGE : Buffer.from('ok');
      res.writeHead(200, { 'Content-Length': String(body.length) });
      endPaced(res, body);
    });
    const url = await listen(server);
    const small = await fetch(`${url}/small`);
    expect(await small.text()).to.equal('ok');
    expect(writes.sizes).to.deep.equal([2]);

    writes.sizes.length = 0;
    writes.queuedBefore.length = 0;
    const large = Buffer.from(await (await fetch(`${url}/large`)).arrayBuffer());
    expect(large.equals(LARGE)).to.equal(true);
    expectSliced(writes, LARGE.length);
  });

  it('when a Koa route answers a large buffer or JSON, then it goes out in slices with its Content-Length, and a small one as before', async () => {
    const writes: Writes = { sizes: [], queuedBefore: [] };
    const json = { items: Array.from({ length: 20_000 }, (_, i) => ({ i, word: 'slice' })) };
    const app = new Koa();
    app.use(async (ctx, next) => {
      recordWrites(ctx.res, writes);
      await next();
    });
    app.use(pacedBodies);
    app.use((ctx) => {
      if (ctx.path === '/buffer') ctx.body = LARGE;
      else if (ctx.path === '/json') ctx.body = json;
      else ctx.body = { small: true };
    });
    const handle = app.callback();
    server = createServer((req, res) => void handle(req, res));
    const url = await listen(server);

    const buffer = await fetch(`${url}/buffer`);
    expect(buffer.headers.get('content-length')).to.equal(String(LARGE.length));
    expect(Buffer.from(await buffer.arrayBuffer()).equals(LARGE)).to.equal(true);
    expectSliced(writes, LARGE.length);

    writes.sizes.length = 0;
    writes.queuedBefore.length = 0;
    const text = JSON.stringify(json);
    const answer = await fetch(`${url}/json`);
    expect(answer.headers.get('content-type')).to.match(/^application\/json/);
    expect(answer.headers.get('content-length')).to.equal(String(Buffer.byteLength(text)));
    expect(await answer.text()).to.equal(text);
    expectSliced(writes, Buffer.byteLength(text));

    writes.sizes.length = 0;
    const small = await fetch(`${url}/small`);
    expect(await small.json()).to.deep.equal({ small: true });
    expect(small.headers.get('content-type')).to.match(/^application\/json/);
    expect(writes.sizes).to.deep.equal([Buffer.byteLength('{"small":true}')]);
  });

  describe('through the whole API', () => {
    let stack: Stack;
    before(async () => {
      stack = await startStack({ workers: 0 });
    });
    after(async () => stack.close());

    it("when a client downloads /docs' script bundle (about 4 MB), then it gets every byte its Content-Length announces", async () => {
      const response = await fetch(`${stack.apiUrl}/docs/assets/scalar.js`, { headers: { 'Accept-Encoding': 'identity' } });
      expect(response.status).to.equal(200);
      const body = Buffer.from(await response.arrayBuffer());
      expect(body.length).to.be.greaterThan(16 * SLICE_BYTES);
      expect(body.length).to.equal(Number(response.headers.get('content-length')));
      expect(body.subarray(0, 200).toString()).to.not.match(/error/i);
    });
  });
});
