/**
 * Property-based tests driven by the served /openapi.json: for every operation, fast-check
 * generates valid and invalid path values, query values, headers (and login bodies), sends them
 * over real HTTP to the real stack (API, worker, simulator, Redis), and checks each answer with
 * the response validator every integration test uses: a listed status, listed headers, a body
 * matching its schema, and never a 5xx.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { oas31 } from 'zod-openapi';
import { ResponseValidator, servedDocument } from '../support/openapi-response.js';
import { http } from '../support/http.js';
import { eventually, startStack, type Stack } from '../support/stack.js';
import { seedUser, tokenFor } from './auth/helpers.js';

const RUNS_PER_OPERATION = Number(process.env.PROPERTY_RUNS ?? 300);
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

interface Generated {
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: string;
  /** Every input is valid for the document: a 400 is then a bug too. */
  valid: boolean;
}

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 60 });
/** Values that have broken parsers elsewhere: empty, zero, signs, exponents, escapes, traversal, long. */
const nasty = fc.constantFrom(
  '',
  '0',
  '-1',
  '2.5',
  '1e3',
  ' 1',
  '0x10',
  '%',
  '%zz',
  '%E0%A4%A',
  '..',
  '%2e%2e',
  '%00',
  'a/b',
  'x'.repeat(300),
  '\u{1F600}',
  'null',
  '[]',
);
const invalidValue = fc.oneof(nasty, fc.string({ unit: 'binary', maxLength: 40 }), printable);

function validValue(schema: oas31.SchemaObject, extra: string[]): fc.Arbitrary<string> {
  if (schema.enum) return fc.constantFrom(...schema.enum.map(String));
  if (schema.pattern) {
    // A valid value matches the pattern within the declared length (the stream's topics repeat a kind at most so far).
    const matching = fc.stringMatching(new RegExp(schema.pattern)).filter((value) => value.length <= (schema.maxLength ?? Infinity));
    return fc.oneof(matching, ...(extra.length > 0 ? [fc.constantFrom(...extra)] : []));
  }
  if (schema.type === 'integer') return fc.integer({ min: schema.minimum ?? 0, max: 10_000 }).map(String);
  return printable;
}

/** Path values go in percent-encoded, except some of the nasty ones, which go in as they are. */
const inPath = (value: string, raw: boolean) =>
  raw && /^[\x21-\x7e]*$/.test(value) && !/[?#]/.test(value) ? value : encodeURIComponent(value);

function headersArbitrary(tokens: string[], etags: string[]): fc.Arbitrary<Record<string, string>> {
  return fc.record(
    {
      'If-None-Match': fc.oneof(fc.constantFrom('*', 'W/"x"', ...etags), printable),
      'Accept-Encoding': fc.constantFrom('gzip', 'br', 'identity', '*', 'gzip;q=0, br;q=0', 'compress', ''),
      Authorization: fc.oneof(
        fc.constantFrom(...tokens.map((token) => `Bearer ${token}`), 'Bearer', 'Basic YTpi', 'Bearer a.b.c'),
        printable,
      ),
      'X-Request-Id': printable,
      'X-Forwarded-For': fc.oneof(fc.ipV4(), printable),
      Accept: fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml', 'application/json, text/event-stream'),
    },
    { requiredKeys: [] },
  );
}

function loginBody(emails: string[]): fc.Arbitrary<{ contentType?: string; body?: string }> {
  const json = fc.oneof(
    fc.record({
      email: fc.oneof(fc.constantFrom(...emails), fc.emailAddress(), printable),
      password: fc.oneof(fc.constant('correct-horse'), printable),
    }),
    fc.jsonValue(),
  );
  return fc.oneof(
    json.map((value) => ({ contentType: 'application/json', body: JSON.stringify(value) })),
    fc.record({
      contentType: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/merge-patch+json'),
      body: fc.oneof(printable, fc.constant('x'.repeat(20_000))),
    }),
    fc.constant({}),
  );
}

/** POST /mcp: JSON-RPC calls of every tool with plausible and wild arguments, other methods, and junk. */
function mcpBody(tools: string[]): fc.Arbitrary<{ contentType?: string; body?: string }> {
  const args = fc.oneof(
    fc.record(
      {
        token: fc.oneof(fc.constantFrom('SOL', '$btc'), printable),
        username: printable,
        page: fc.integer({ min: -2, max: 1e6 }),
        limit: fc.integer({ min: -2, max: 100 }),
        from: printable,
        to: printable,
        interval: fc.constantFrom('30m', '1h', '4h', '1d', 'x'),
        at: printable,
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue(),
  );
  const call = fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.nat(),
    method: fc.constant('tools/call'),
    params: fc.record({ name: fc.oneof(fc.constantFrom(...tools), printable), arguments: args }),
  });
  const other = fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.nat(),
    method: fc.constantFrom('tools/list', 'ping', 'initialize', 'resources/list', 'nope'),
  });
  return fc.oneof(
    fc.oneof(call, other, fc.jsonValue()).map((value) => ({ contentType: 'application/json', body: JSON.stringify(value) })),
    fc.record({
      contentType: fc.constantFrom('application/json', 'text/plain'),
      body: fc.oneof(printable, fc.constant('x'.repeat(70_000))),
    }),
  );
}

describe('property: every route against the served /openapi.json (fast-check)', function () {
  this.timeout(600_000);
  let stack: Stack;
  let document: oas31.OpenAPIObject;
  let validator: ResponseValidator;
  let tokens: string[] = [];
  /** Known values per path parameter, so valid inputs also reach 200s, not only 404s. */
  const known: Record<string, string[]> = {};
  let etags: string[] = [];
  const counts = { requests: 0, byStatus: new Map<number, number>() };

  before(async () => {
    // Every window the document names is configured, so each value it calls valid is served (one not configured is a 400: trending-windows.test.ts).
    stack = await startStack({ workers: 1, env: { TRENDING_WINDOWS: '1h,4h,24h,7d,30d' } });
    await eventually(async () => ((await http(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined), 30_000, 'ready');
    const served = await http(`${stack.apiUrl}/openapi.json`);
    document = served.json as oas31.OpenAPIObject;
    validator = new ResponseValidator(document);
    await seedUser(stack, 'admin@example.com', 'correct-horse', 'admin');
    await seedUser(stack, 'user@example.com', 'correct-horse', 'user');
    tokens = [await tokenFor(stack, 'admin@example.com', 'correct-horse'), await tokenFor(stack, 'user@example.com', 'correct-horse')];
    const news = (await http(`${stack.apiUrl}/api/market/news?limit=50`)).json as { data: { author: string; tokens: string[] }[] };
    known.username = [...new Set(news.data.map((item) => item.author))].slice(0, 20);
    known.token = [...new Set(news.data.flatMap((item) => item.tokens))].slice(0, 20);
    for (const path of ['/api/market/trending', '/api/market/news', '/openapi.json'])
      etags.push((await http(`${stack.apiUrl}${path}`)).headers.get('etag') ?? '');
    etags = etags.filter(Boolean);
  });
  after(async () => {
    console.log(
      `      generated requests: ${counts.requests} (each checked: listed status, headers and body schema; below 500); by status: ${[
        ...counts.byStatus,
      ]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}x${n}`)
        .join(' ')}`,
    );
    await stack.close();
  });

  /** Sends one generated request and checks its answer; returns the status. */
  async function send(method: string, generated: Generated): Promise<number> {
    const url = `${generated.path}${generated.query}`;
    const aborter = new AbortController();
    const response = await fetch(`${stack.apiUrl}${url}`, {
      method: method.toUpperCase(),
      headers: generated.headers,
      body: generated.body,
      redirect: 'manual',
      signal: aborter.signal,
    });
    // An event stream never ends by itself: its status and headers are what can be checked.
    const streaming = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
    if (streaming) aborter.abort();
    const body = streaming ? Buffer.alloc(0) : Buffer.from(await response.arrayBuffer());
    counts.requests += 1;
    counts.byStatus.set(response.status, (counts.byStatus.get(response.status) ?? 0) + 1);
    const problems = validator.violations({ method: method.toUpperCase(), url, status: response.status, headers: response.headers, body });
    const where = `${method.toUpperCase()} ${url} ${JSON.stringify(generated.headers)} ${generated.body?.slice(0, 80) ?? ''}`;
    expect(problems, where).to.deep.equal([]);
    // A readiness probe's 503 (documented) is its answer about the process, not a failure to handle
    // the input: on a loaded machine a check can take longer than the probe allows.
    const probeNotReady = url.split('?')[0] === '/readyz' && response.status === 503;
    if (!probeNotReady) expect(response.status, `${where}: ${body.toString('utf8').slice(0, 200)}`).to.be.below(500);
    if (generated.valid) expect(response.status, `${where}: a valid request`).not.to.equal(400);
    return response.status;
  }

  it('documents at least every route it is about to probe', () => {
    expect(Object.keys(document.paths ?? {})).to.have.length.greaterThan(10);
  });

  // One test per operation. Mocha needs the tests before `before` runs, so the list comes from
  // the in-process document; each test then reads its operation from the one served over HTTP.
  for (const [path, item] of Object.entries(servedDocument.paths ?? {})) {
    for (const method of METHODS) {
      if (!item[method]) continue;
      it(`${method.toUpperCase()} ${path}: valid and invalid path values, queries, headers and bodies`, async () => {
        const operation = (document.paths?.[path] as oas31.PathItemObject)[method] as oas31.OperationObject;
        const parameters = (operation.parameters ?? []) as oas31.ParameterObject[];
        const pathParams = parameters.filter((p) => p.in === 'path');
        const queryParams = parameters.filter((p) => p.in === 'query');

        const pathValues = fc.tuple(
          ...pathParams.map((p) =>
            fc.oneof(
              validValue(p.schema as oas31.SchemaObject, known[p.name] ?? []).map((value) => ({
                value: inPath(value, false),
                valid: true,
              })),
              fc.tuple(invalidValue, fc.boolean()).map(([value, raw]) => ({ value: inPath(value, raw), valid: false })),
            ),
          ),
        );
        const queryValues = fc.tuple(
          ...queryParams.map((p) =>
            fc.oneof(
              fc.constant(undefined),
              // Encoded as a client must: a raw `+` (an offset's sign) would arrive as a space.
              validValue(p.schema as oas31.SchemaObject, []).map((value) => ({
                text: `${p.name}=${encodeURIComponent(value)}`,
                valid: true,
              })),
              invalidValue.map((value) => ({ text: `${p.name}=${encodeURIComponent(value)}`, valid: false })),
              fc.tuple(fc.nat(99), fc.nat(99)).map(([a, b]) => ({ text: `${p.name}=${a + 1}&${p.name}=${b + 1}`, valid: false })),
            ),
          ),
        );
        const extraQuery = fc.oneof(
          fc.constant(''),
          printable.map((value) => `junk=${encodeURIComponent(value)}`),
        );
        const body: fc.Arbitrary<{ contentType?: string; body?: string }> =
          method === 'post' && path === '/api/auth/login'
            ? loginBody(['admin@example.com', 'user@example.com'])
            : method === 'post' && path === '/mcp'
              ? mcpBody([
                  'trending_tokens',
                  'trending_contracts',
                  'news',
                  'username_stats',
                  'token_sentiment',
                  'sentiment_history',
                  'token_history',
                ])
              : fc.constant({});

        await fc.assert(
          fc.asyncProperty(
            pathValues,
            queryValues,
            extraQuery,
            headersArbitrary(tokens, etags),
            body,
            async (pv, qv, junk, headers, sent) => {
              let filled = path;
              pathParams.forEach((p, i) => (filled = filled.replace(`{${p.name}}`, pv[i]?.value ?? '')));
              const parts = [...qv.filter((q) => q !== undefined).map((q) => q.text), ...(junk ? [junk] : [])];
              // The documented rules across parameters: `from` after `to` is a 400 (history routes), and a
              // token's mindshare over 7d or 30d is counted per day (an interval of 1h or 4h is a 400).
              const asked = (name: string) => qv.some((q) => q?.text.startsWith(`${name}=`));
              const bothEnds = asked('from') && asked('to');
              const hoursOverDays =
                qv.some((q) => /^window=(7d|30d)$/.test(q?.text ?? '')) && qv.some((q) => /^interval=(1h|4h)$/.test(q?.text ?? ''));
              // The pairlist's mindshare source has no 4h window.
              const mindshareFourHours = qv.some((q) => q?.text === 'source=mindshare') && qv.some((q) => q?.text === 'window=4h');
              const valid =
                pv.every((v) => v.valid) &&
                qv.every((q) => q === undefined || q.valid) &&
                !bothEnds &&
                !hoursOverDays &&
                !mindshareFourHours;
              const withType = sent.contentType ? { ...headers, 'Content-Type': sent.contentType } : headers;
              await send(method, {
                path: filled,
                query: parts.length > 0 ? `?${parts.join('&')}` : '',
                headers: withType,
                body: sent.body,
                valid: valid && !operation.requestBody,
              });
            },
          ),
          { numRuns: RUNS_PER_OPERATION, seed: process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : undefined },
        );
      });
    }
  }
});
