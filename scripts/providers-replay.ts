/**
 * `npm run --silent providers:replay -- <folder>`: replays captured provider bodies through the
 * composite adapters' parsers and prints what each yields, or why it was refused (no network, no
 * Redis). The folder's layout: docs/providers.md, "Checking a capture".
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMarkets } from '../apps/worker/src/providers/coingecko.js';
import {
  parseAccountPosts,
  parseKeyStatus,
  parseTrendingContracts,
  parseTrendingTokens,
  RETIRED_SMART_STATS,
} from '../apps/worker/src/providers/elfa.js';
import { errorDetail } from '../apps/worker/src/providers/upstream-http.js';
import { parseItems } from '../apps/worker/src/providers/tolerant.js';
import { engagementScore, pageSchema, postsOf, problemsOf, tokensOf, userSchema, xRefusal } from '../apps/worker/src/providers/x-wire.js';
import { parseRetryAfter } from '../apps/worker/src/providers/upstream-error.js';

type Provider = 'elfa' | 'coingecko' | 'x';

export interface Capture {
  name: string;
  provider: Provider | undefined;
  path: string;
  query: URLSearchParams;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface Replayed {
  name: string;
  outcome: 'read' | 'refused' | 'error answer' | 'skipped';
  text: string;
}

/**
 * The capture's endpoint line as provider, path and query: a folder named after the provider
 * decides, else the path (`/v2/` Elfa, `/2/` X, `/api/v3` or a CoinGecko host CoinGecko).
 */
function endpointOf(line: string, folder: string): { provider: Provider | undefined; path: string; query: URLSearchParams } {
  const raw = /(?:https?:\/\/[^\s/]+)?(\/[^\s(]*)/.exec(line)?.[1] ?? '';
  const [pathPart = '', queryPart = ''] = raw.split('?');
  const path = pathPart.replace(/^\/api\/v3(?=\/|$)/, '') || pathPart;
  const named = folder.split(/[\\/]/).find((part): part is Provider => part === 'elfa' || part === 'coingecko' || part === 'x');
  const byPath: Provider | undefined = /^\/v2\//.test(pathPart)
    ? 'elfa'
    : /^\/2\//.test(pathPart)
      ? 'x'
      : /^\/api\/v3|coingecko\.com/.test(`${pathPart} ${line}`)
        ? 'coingecko'
        : undefined;
  return { provider: named ?? byPath, path, query: new URLSearchParams(queryPart) };
}

/** `headers: {...}` (the JSON object at the start of the value; values may be arrays, first one kept). */
function headersOf(line: string | undefined): Record<string, string> {
  if (!line) return {};
  const start = line.indexOf('{');
  for (let end = line.lastIndexOf('}'); start >= 0 && end > start; end = line.lastIndexOf('}', end - 1)) {
    try {
      const parsed = JSON.parse(line.slice(start, end + 1)) as Record<string, unknown>;
      return Object.fromEntries(
        Object.entries(parsed).map(([name, value]) => [name.toLowerCase(), String(Array.isArray(value) ? value[0] : value)]),
      );
    } catch {
      // A shorter prefix may be the object: the line goes on in prose.
    }
  }
  return {};
}

export function readCapture(jsonFile: string, root: string): Capture | Replayed {
  const name = relative(root, jsonFile).replace(/\.json$/, '');
  let source: string;
  try {
    source = readFileSync(jsonFile.replace(/\.json$/, '.source.txt'), 'utf8');
  } catch {
    return { name, outcome: 'skipped', text: 'no .source.txt beside it' };
  }
  const field = (key: string) => new RegExp(`^${key}:\\s*(.*)$`, 'mi').exec(source)?.[1];
  const { provider, path, query } = endpointOf(field('endpoint') ?? '', relative(root, jsonFile));
  const text = readFileSync(jsonFile, 'utf8');
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    body = undefined;
  }
  return {
    name,
    provider,
    path,
    query,
    status: Number(/\d{3}/.exec(field('status') ?? '')?.[0] ?? 200),
    headers: headersOf(field('headers')),
    body,
  };
}

/** What the adapters make of a non-2xx answer (apps/worker/src/providers/upstream-http.ts). */
function errorAnswer(capture: Capture): string {
  const { status, headers, body, provider, path } = capture;
  const detail = errorDetail(body);
  const reason = detail ? ` (${detail})` : '';
  const type = typeof body === 'object' && body !== null ? (body as { type?: unknown }).type : undefined;
  if (status === 429 && typeof type === 'string' && type.endsWith('/usage-capped'))
    return `HTTP 429 usage cap: blocked until the 1st of next month${reason}`;
  if (status === 429) {
    const epoch = headers['x-ratelimit-reset'] ?? headers['x-rate-limit-reset'];
    const retryAfter = parseRetryAfter(headers['retry-after']);
    const wait =
      epoch && /^\d+$/.test(epoch)
        ? `reset at ${new Date(Number(epoch) * 1000).toISOString()} (epoch seconds): one more call if within 60 s`
        : retryAfter !== undefined
          ? `wait ${Math.round(retryAfter / 1000)} s (Retry-After)${retryAfter > 60_000 ? ': over the 60 s cap, the refresh fails and the next one asks again' : ', then one more call'}`
          : 'no reset given: not retried';
    return `HTTP 429 rate limited, ${wait}${reason}`;
  }
  if (status === 402) {
    const until =
      provider === 'elfa'
        ? 'before the 1st of next month on a monthly plan, for an hour on a prepaid key'
        : provider === 'x'
          ? 'for an hour (prepaid credits)'
          : 'before the 1st of next month';
    return `HTTP 402 out of credits: no call ${until}${reason}`;
  }
  if (provider === 'elfa' && path.startsWith(RETIRED_SMART_STATS))
    return `HTTP ${status}: retired on 28 October 2026, never called${reason}`;
  const refusal = provider === 'x' ? xRefusal(status, body) : undefined;
  if (refusal) return `HTTP ${status} ${refusal}`;
  if (status === 401 || status === 403) return `HTTP ${status} refused: the key or the app's access${reason}`;
  if (provider === 'elfa' && (status === 404 || status === 410) && path.startsWith('/v2/data/'))
    return `HTTP ${status}: the route is gone (not called for 7 days), not an unknown account${reason}`;
  return `HTTP ${status}: ${status === 408 || status >= 500 ? 'retryable by the job unless a provider billed the call' : 'not retried'}${reason}`;
}

const list = (items: readonly string[], max = 5) =>
  `${items.slice(0, max).join(', ')}${items.length > max ? `, … (${items.length - max} more)` : ''}`;

/** X's envelope as the adapter reads it (x-wire.ts): `data` optional (an empty page has none), `errors[]` beside it skipped, not failed. */
function xBody(body: unknown, path: string): string {
  // A lookup by one name answers `data` as an object: as a page of one.
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  const parsed = pageSchema.safeParse(data !== undefined && !Array.isArray(data) ? { ...(body as object), data: [data] } : body);
  if (!parsed.success) throw new Error('not an X page');
  const problems = problemsOf(parsed.data.errors).map((problem) => problem.detail ?? problem.title ?? 'no detail');
  const skipped = problems.length > 0 ? `; ${problems.length} problem(s) skipped: ${list(problems, 2)}` : '';
  if (/^\/2\/users/.test(path) && !/\/tweets$/.test(path)) {
    const users = parseItems(parsed.data.data ?? [], userSchema).valid;
    return `${users.length} user(s): ${list(users.map((user) => `${user.username} (${user.id}${user.public_metrics?.followers_count === undefined ? '' : `, ${user.public_metrics.followers_count} followers`})`))}${skipped}`;
  }
  const { posts, included } = postsOf(parsed.data);
  const dropped = (parsed.data.data?.length ?? 0) - posts.length;
  const described = posts.map((post) => {
    const cashtags = tokensOf(post).map((token) => ` $${token}`);
    return `${post.id} engagement ${engagementScore(post.metrics)}, ${post.text.length} characters${cashtags.join('')}`;
  });
  const notes = [
    dropped > 0 ? `${dropped} dropped (no created_at or invalid)` : '',
    included.length > 0 ? `${included.length} included post(s)` : '',
    parsed.data.meta?.next_token ? 'a next page' : '',
  ].filter(Boolean);
  return `${posts.length} post(s)${posts.length ? `: ${list(described, 3)}` : ''}${notes.length ? `; ${notes.join('; ')}` : ''}${skipped}`;
}

/** What the adapters make of one captured answer. */
export function replay(capture: Capture): Replayed {
  const { name, provider, path, query, status, body } = capture;
  const head = `${provider ?? '?'} ${path || '(no endpoint)'} ${status}`;
  if (!provider) return { name, outcome: 'skipped', text: `${head}: no provider recognised in the endpoint line` };
  if (status >= 400) return { name, outcome: 'error answer', text: `${head}: ${errorAnswer(capture)}` };
  if (body === undefined) return { name, outcome: 'refused', text: `${head}: malformed JSON` };
  try {
    return { name, outcome: 'read', text: `${head}: ${readBody(provider, path, query, body)}` };
  } catch (error) {
    return { name, outcome: 'refused', text: `${head}: refused: ${(error as Error).message}` };
  }
}

function readBody(provider: Provider, path: string, query: URLSearchParams, body: unknown): string {
  if (provider === 'coingecko') {
    if (!path.startsWith('/coins/markets')) return 'not read by the adapter (it asks only /coins/markets)';
    const rows = parseMarkets(body);
    return `${rows.length} coin(s): ${list(rows.map((row) => `${row.symbol.toUpperCase()} ${row.name} 24h ${row.price_change_percentage_24h ?? 'none (0 in the list)'}`))}`;
  }
  if (provider === 'x') return xBody(body, path);
  if (path.startsWith(RETIRED_SMART_STATS)) return 'retired on 28 October 2026: never called, the body is ignored';
  if (path.startsWith('/v2/aggregations/trending-tokens')) {
    const tokens = parseTrendingTokens(body);
    if (tokens.length === 0) throw new Error('no valid token: the refresh keeps its snapshot');
    return `${tokens.length} token(s): ${list(tokens.map((token) => `${token.token} (${token.mentions})`))}`;
  }
  if (path.startsWith('/v2/aggregations/trending-cas')) {
    const contracts = parseTrendingContracts(body, path);
    if (contracts.length === 0) throw new Error('no valid address: the refresh keeps its snapshot');
    return `${contracts.length} address(es): ${list(contracts.map((contract) => `${contract.chain}:${contract.address} (${contract.mentions})`))}`;
  }
  if (path.startsWith('/v2/key-status')) {
    const status = parseKeyStatus(body);
    const budget =
      status.monthlyLimit !== null
        ? `${status.monthlyLimit} credits a month`
        : status.dailyLimit !== null
          ? `${status.dailyLimit} credits a day`
          : 'no limit named (a prepaid key): REFRESH_INTERVAL or ELFA_DAILY_CREDITS sets the pace';
    return `${budget}; remaining this month ${status.monthlyRemaining ?? 'unknown'}; billing ${status.billingMode ?? 'unknown'}`;
  }
  if (path.startsWith('/v2/data/keyword-mentions')) {
    const posts = parseAccountPosts(body, query.get('accountName') ?? '');
    return `${posts.totalPosts ?? 'unknown'} post(s) in the window, average engagement ${posts.avgEngagement ?? 'unknown'}`;
  }
  return 'not read by the adapter';
}

function jsonFiles(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((entry) => {
      const full = join(folder, entry);
      if (statSync(full).isDirectory()) return jsonFiles(full);
      return entry.endsWith('.json') ? [full] : [];
    });
}

export function replayFolder(folder: string): Replayed[] {
  return jsonFiles(folder).map((file) => {
    const capture = readCapture(file, folder);
    return 'outcome' in capture ? capture : replay(capture);
  });
}

// Run as a command (not when a test imports it).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2];
  if (!folder) {
    process.stderr.write('usage: npm run --silent providers:replay -- <folder of NAME.json + NAME.source.txt>\n');
    process.exit(2);
  }
  const results = replayFolder(folder);
  for (const result of results) process.stdout.write(`${result.outcome.padEnd(12)} ${result.name}\n             ${result.text}\n`);
  const count = (outcome: Replayed['outcome']) => results.filter((result) => result.outcome === outcome).length;
  process.stdout.write(
    `\n${results.length} bodies: ${count('read')} read, ${count('error answer')} error answers, ${count('refused')} refused, ${count('skipped')} skipped\n`,
  );
}
