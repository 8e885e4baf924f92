/**
 * Input that used to get a 5xx or a body that is not `{ "error" }` JSON (docs/decisions.md#d12): methods the
 * router does not list, request bodies whose Content-Encoding does not decompress, and the
 * requests Node's HTTP parser refuses before Koa sees them.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { installClientErrorHandler } from '../../../apps/api/src/http/client-errors.js';
import { http } from '../../support/http.js';
import { rawExchange, type RawAnswer } from '../../support/raw-http.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';

function expectJsonError(answer: RawAnswer, status: number): void {
  expect(answer.status, answer.body.toString()).to.equal(status);
  expect(answer.headers['content-type']).to.match(/^application\/json/);
  const parsed = JSON.parse(answer.body.toString('utf8')) as unknown;
  expect(parsed).to.have.all.keys('error');
  expect((parsed as { error: unknown }).error).to.be.a('string');
}

describe('hostile input over HTTP', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
    // The snapshot in memory, so GETs of it take the fast path before Koa.
    await eventually(async () => ((await http(`${stack.apiUrl}/api/market/trending`)).status === 200 ? true : undefined));
  });
  after(() => stack.close());

  describe('methods the router does not list', () => {
    for (const method of ['TRACE', 'PROPFIND', 'SEARCH', 'QUERY']) {
      it(`when ${method} asks a known path, then JSON 405 with Allow; on an unknown path JSON 404`, async () => {
        for (const path of ['/api/market/trending', '/api/market/stats/someone', '/api/auth/login']) {
          const answer = await rawExchange(stack.apiUrl, `${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
          expectJsonError(answer, 405);
          expect(JSON.parse(answer.body.toString())).to.deep.equal({ error: 'Method not allowed' });
          expect(answer.headers.allow).to.be.a('string').and.not.equal('');
        }
        const unknown = await rawExchange(stack.apiUrl, `${method} /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        expectJsonError(unknown, 404);
        expect(JSON.parse(unknown.body.toString())).to.deep.equal({ error: 'Not found' });
      });
    }
  });

  it('when CONNECT asks for a tunnel, then JSON 404 (its target is no path of ours) and the connection closes', async () => {
    const answer = await rawExchange(stack.apiUrl, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectJsonError(answer, 404);
    expect(answer.closed).to.equal(true);
  });

  describe('login bodies whose Content-Encoding does not decode', () => {
    const cases: [string, Buffer][] = [
      ['gzip', Buffer.from('{"email":"a@b.c","password":"x"}')],
      ['deflate', Buffer.from('not deflated at all')],
      ['br', Buffer.from('{"not":"brotli"}')],
      ['gzip', gzipSync(Buffer.from('{"email":"a@b.c","password":"x"}')).subarray(0, 12)],
    ];
    for (const [encoding, body] of cases) {
      it(`when the body is sent as ${encoding} but is not (${body.length} bytes), then 400 Invalid JSON body and no error-level log`, async () => {
        const errors: unknown[] = [];
        const logger = stack.deps.logger;
        const original = logger.error.bind(logger);
        logger.error = (...args: unknown[]) => void errors.push(args);
        try {
          const res = await http(`${stack.apiUrl}/api/auth/login`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
            body: body,
          });
          expect(res.status).to.equal(400);
          expect(res.json).to.deep.equal({ error: 'Invalid JSON body' });
        } finally {
          logger.error = original;
        }
        expect(errors).to.deep.equal([]);
      });
    }

    it('when the body is valid gzip or br JSON, then it is parsed (401 for unknown credentials)', async () => {
      const json = Buffer.from('{"email":"nobody@example.com","password":"whatever-it-is"}');
      for (const [encoding, body] of [
        ['gzip', gzipSync(json)],
        ['br', brotliCompressSync(json)],
      ] as const) {
        const res = await http(`${stack.apiUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
          body,
        });
        expect(res.status, encoding).to.equal(401);
      }
    });

    it('when a small gzip body inflates past 16 KiB, then 413 Payload too large (the limit counts decoded bytes)', async () => {
      const bomb = gzipSync(Buffer.from(`{"email":"a@b.c","password":"${'x'.repeat(5_000_000)}"}`));
      expect(bomb.length).to.be.below(16 * 1024);
      const res = await http(`${stack.apiUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body: bomb,
      });
      expect(res.status).to.equal(413);
      expect(res.json).to.deep.equal({ error: 'Payload too large' });
    });

    it('when the encoding is one nobody decodes, then 415 Unsupported media type', async () => {
      const res = await http(`${stack.apiUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'compress' },
        body: '{}',
      });
      expect(res.status).to.equal(415);
      expect(res.json).to.deep.equal({ error: 'Unsupported media type' });
    });
  });

  describe('absolute-form targets without a path, which Node accepts', () => {
    for (const [method, target] of [
      ['GET', 'http://'],
      ['GET', 'http://?a=1'],
      ['POST', 'http://'],
      ['OPTIONS', 'http://'],
      ['GET', 'https://?limit=1'],
    ]) {
      it(`when ${method} ${target} arrives, then 400 Bad request as JSON and no error-level log`, async () => {
        const errors: unknown[] = [];
        const logger = stack.deps.logger;
        const original = logger.error.bind(logger);
        logger.error = (...args: unknown[]) => void errors.push(args);
        try {
          const answer = await rawExchange(stack.apiUrl, `${method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
          expectJsonError(answer, 400);
          expect(JSON.parse(answer.body.toString())).to.deep.equal({ error: 'Bad request' });
        } finally {
          logger.error = original;
        }
        expect(errors).to.deep.equal([]);
      });
    }

    it('when HEAD http:// arrives, then 400 without a body', async () => {
      const answer = await rawExchange(stack.apiUrl, 'HEAD http:// HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expect(answer.status).to.equal(400);
      expect(answer.body.length).to.equal(0);
    });
  });

  describe("requests Node's parser refuses", () => {
    const refused: [string, string, number][] = [
      ['a malformed request line', 'GARBAGE\r\n\r\n', 400],
      ['an unknown method', 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['a header name with a space', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n', 400],
      [
        'Content-Length with Transfer-Encoding',
        'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        400,
      ],
      ['headers over the limit', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['an Expect other than 100-continue', 'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\n', 417],
    ];
    for (const [what, bytes, status] of refused) {
      it(`when the request has ${what}, then ${status} with a JSON error body, and the connection closes`, async () => {
        const answer = await rawExchange(stack.apiUrl, bytes);
        expectJsonError(answer, status);
        expect(answer.closed).to.equal(true);
      });
    }
  });
});

describe('installClientErrorHandler, on a server with short timeouts', () => {
  let server: Server;
  let url: string;
  before(async () => {
    server = createServer({ headersTimeout: 300, requestTimeout: 300, connectionsCheckingInterval: 50 }, (_req, res) => res.end());
    installClientErrorHandler(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('when a request does not finish its headers in time, then 408 with a JSON error body and the connection closes', async () => {
    const answer = await rawExchange(url, 'GET / HTTP/1.1\r\nHost: x\r\n', 3000);
    expectJsonError(answer, 408);
    expect(answer.closed).to.equal(true);
  });
});
