/**
 * A deterministic fuzz run over raw sockets (docs/decisions.md#d12): several hundred malformed or odd
 * requests (methods, request lines, headers, encodings, bodies, and /mcp's JSON-RPC) against the
 * whole API. None may get a 5xx or go unanswered, and every error response with a body must be
 * `{ "error": string }` JSON, or on /mcp a JSON-RPC error.
 */
import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { http } from '../../support/http.js';
import { rawExchange, type RawAnswer } from '../../support/raw-http.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';

const METHODS = [
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'HEAD',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'SEARCH',
  'QUERY',
  'MKCOL',
  'FOO',
  'get',
  'G\tET',
];
const PATHS = [
  '/',
  '/api/market/trending',
  '/api/market/news?limit=abc&page=0',
  '/api/market/news?limit=1e3',
  '/api/market/stats/%ZZ',
  `/api/market/stats/${'a'.repeat(300)}`,
  '/api/market/stats/%E0%A4%A',
  '/sentiment/$$$',
  '/api/auth/login',
  '/api/auth/me',
  '/api/admin/refresh',
  '/..%2f..%2fetc/passwd',
  '*',
  'http://evil.example/api/market/trending',
  '/%00',
  '//api//market',
  // Absolute-form targets without a path: Node accepts them and Koa's ctx.path is null.
  'http://',
  'http://?a=1',
  'https://',
  'http://#frag',
  '/api/alerts',
  '/api/alerts/alr_%ZZ',
  '/api/alerts/stream',
  `/api/alerts/${'a'.repeat(300)}/deliveries`,
  '/mcp',
  '/mcp/',
  '/mcp?x=1',
];
const LOGIN_TYPES = ['application/json', 'application/json; charset=latin1', 'text/plain', 'application/x-www-form-urlencoded', ''];
const ENCODINGS = ['', 'gzip', 'deflate', 'br', 'compress', 'gzip, br', 'identity'];
const BODIES = ['', '{', 'null', '[]', '{"email":1,"password":[]}', '{"__proto__":{"x":1}}', '\u0000\u0001\u00ff', 'x'.repeat(17_000)];
const MANGLED = [
  'GET\r\n\r\n',
  'GET / HTTP/9.9\r\nHost: x\r\n\r\n',
  'GET / HTTP/1.1\nHost: x\n\n',
  ' GET / HTTP/1.1\r\n\r\n',
  'GET  /  HTTP/1.1\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
  'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
  'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
  'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n',
  'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: x\r\n: empty-name\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: x\r\nX-\u0001: y\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: x\r\n folded: y\r\n\r\n',
  `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
  `GET /${'p'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
  'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nExpect: nonsense\r\nContent-Length: 2\r\n\r\n{}',
  '\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000',
  'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
  'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
  'CONNECT / HTTP/1.1\r\n\r\n',
  'GET /api/auth/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a.b.c\r\nConnection: close\r\n\r\n',
  'GET /api/auth/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.\r\nConnection: close\r\n\r\n',
  'GET /api/market/news HTTP/1.1\r\nHost: x\r\nIf-None-Match: "\u00ff\r\nAccept-Encoding: zstd;q=2, *;q=-1\r\nConnection: close\r\n\r\n',
];

function request(method: string, path: string, headers: Record<string, string> = {}, body: Buffer | string = ''): Buffer {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1');
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: fuzz', 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) if (value !== '') lines.push(`${name}: ${value}`);
  if (bytes.length > 0) lines.push(`Content-Length: ${bytes.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bytes]);
}

/** POST /mcp: the transport's headers, JSON-RPC that is odd, batches, hostile arguments. */
const MCP_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/plain', ''];
const MCP_ACCEPTS = ['application/json, text/event-stream', 'application/json', '*/*', ''];
const message = (method: string, params?: unknown, id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});
const rpc = (method: string, params?: unknown, id: unknown = 1) => JSON.stringify(message(method, params, id));
const MCP_BODIES = [
  '',
  '{',
  'null',
  '[]',
  '[{}]',
  '{}',
  '"tools/list"',
  '{"jsonrpc":"2.0"}',
  '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
  rpc('tools/list'),
  rpc('tools/list', undefined, { an: 'object' }),
  rpc('tools/list', undefined, 1.5),
  rpc('tools/list', { cursor: 'x' }),
  rpc('tools/call'),
  rpc('tools/call', { name: 7 }),
  rpc('tools/call', { name: '__proto__' }),
  rpc('tools/call', { name: 'news', arguments: [] }),
  rpc('tools/call', { name: 'news', arguments: { limit: 1e308, page: -1 } }),
  rpc('tools/call', { name: 'token_sentiment', arguments: { token: '\u0000' } }),
  rpc('tools/call', { name: 'username_stats', arguments: { username: 'x'.repeat(5000) } }),
  rpc('tools/call', { name: 'token_history', arguments: { token: 'BTC', from: '0001-01-01', to: '9999-12-31', interval: '1d' } }),
  rpc('tools/call', { name: 'trending_tokens', arguments: { at: '2026-13-45T99:99:99Z' } }),
  rpc('tools/call', { name: 'trending_tokens', _meta: { progressToken: 1 } }),
  rpc('initialize', { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 'f', version: '0' } }),
  rpc('ping'),
  rpc('resources/read', { uri: 'file:///etc/passwd' }),
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
  JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }),
  JSON.stringify([
    message('tools/call', { name: 'trending_tokens' }),
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
  ]),
  JSON.stringify(Array.from({ length: 101 }, (_, i) => message('ping', undefined, i))),
  `{"jsonrpc":"2.0","id":1,"method":"${'m'.repeat(70_000)}"}`,
];
const MCP_EXTRA_HEADERS: Record<string, string>[] = [
  {},
  { Origin: 'null' },
  { Origin: 'http://evil.example' },
  { 'MCP-Protocol-Version': 'nope' },
  { 'Content-Encoding': 'gzip' },
];

function mcpCases(): Buffer[] {
  const all: Buffer[] = [];
  for (const type of MCP_TYPES)
    for (const accept of MCP_ACCEPTS) all.push(request('POST', '/mcp', { 'Content-Type': type, Accept: accept }, rpc('tools/list')));
  for (const body of MCP_BODIES) {
    for (const extra of MCP_EXTRA_HEADERS)
      all.push(request('POST', '/mcp', { 'Content-Type': 'application/json', Accept: MCP_ACCEPTS[0]!, ...extra }, body));
  }
  return all;
}

function cases(): Buffer[] {
  const all: Buffer[] = [];
  for (const method of METHODS) for (const path of PATHS) all.push(request(method, path));
  for (const type of LOGIN_TYPES) {
    for (const encoding of ENCODINGS) {
      for (const body of BODIES) {
        const bytes = encoding === 'gzip' && body === '{' ? gzipSync('{') : body;
        all.push(request('POST', '/api/auth/login', { 'Content-Type': type, 'Content-Encoding': encoding }, bytes));
      }
    }
  }
  for (const mangled of MANGLED) all.push(Buffer.from(mangled, 'latin1'));
  all.push(...mcpCases());
  return all;
}

async function runAll(apiUrl: string, requests: Buffer[], parallel: number): Promise<RawAnswer[]> {
  const answers: RawAnswer[] = new Array<RawAnswer>(requests.length);
  let next = 0;
  const lane = async () => {
    while (next < requests.length) {
      const at = next++;
      answers[at] = await rawExchange(apiUrl, requests[at]!, 3000);
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return answers;
}

describe('fuzz: malformed requests over raw sockets', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
    // Snapshots present, so well-formed market reads answer at once instead of waiting for the worker.
    await eventually(async () => ((await http(`${stack.apiUrl}/api/market/news`)).status === 200 ? true : undefined));
  });
  after(() => stack.close());

  it('when several hundred malformed requests arrive, then none gets a 5xx and every error body is {error} JSON', async function () {
    this.timeout(120_000);
    const requests = cases();
    const answers = await runAll(stack.apiUrl, requests, 6);
    const byStatus = new Map<number, number>();
    const problems: string[] = [];
    answers.forEach((answer, i) => {
      byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
      const what = JSON.stringify(requests[i]!.subarray(0, 80).toString('latin1'));
      if (answer.status >= 500) problems.push(`${answer.status} for ${what}`);
      if (answer.status >= 400 && answer.body.length > 0 && !isErrorJson(answer) && !isJsonRpcError(answer)) {
        problems.push(`${answer.status} non-JSON body ${JSON.stringify(answer.body.subarray(0, 60).toString())} for ${what}`);
      }
    });
    const summary = [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}:${n}`)
      .join(' ');
    console.log(`      fuzz: ${requests.length} malformed requests; statuses ${summary}`);
    expect(requests.length).to.be.at.least(300);
    expect(problems).to.deep.equal([]);
    expect(byStatus.get(0) ?? 0, 'requests left without any answer').to.equal(0);
  });
});

/** What /mcp's transport answers: a JSON-RPC error object (`{jsonrpc: "2.0", error: {code, message}, id}`). */
function isJsonRpcError(answer: RawAnswer): boolean {
  if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) return false;
  try {
    const parsed = JSON.parse(answer.body.toString('utf8')) as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } };
    return parsed.jsonrpc === '2.0' && typeof parsed.error?.code === 'number' && typeof parsed.error.message === 'string';
  } catch {
    return false;
  }
}

function isErrorJson(answer: RawAnswer): boolean {
  if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) return false;
  try {
    const parsed = JSON.parse(answer.body.toString('utf8')) as unknown;
    return (
      typeof parsed === 'object' &&
      parsed !== null &&
      Object.keys(parsed).join() === 'error' &&
      typeof (parsed as { error: unknown }).error === 'string'
    );
  } catch {
    return false;
  }
}
