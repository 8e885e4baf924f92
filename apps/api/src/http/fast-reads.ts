/**
 * Cached market reads answered straight from node:http, before Koa. Serving a snapshot held in
 * memory costs little more than writing its bytes; Koa's per-request context, middleware chain
 * and router would double that (see `npm run bench`), and pollers make these reads nearly all
 * of the traffic.
 *
 * The fast path answers only what it can answer completely: a GET of a snapshot held in memory,
 * a valid news page, a known token, a stats hit held in memory. It sends what Koa would send,
 * byte for byte, through the same functions (replyWith, requestIdFor, recordRequest,
 * PUBLIC_READ_HEADERS). Everything else (other methods and routes, invalid input, errors,
 * misses) goes to Koa untouched, so the error contract keeps one owner.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { needsKeyCheck } from '../auth/api-key-auth.js';
import type { ApiDeps } from '../deps.js';
import { secondsLeft } from '../market/snapshot-cache.js';
import { parseHistoryQuery, parseNewsQuery, parseTokenParam, parseUsernameParam } from '../routes/market/schema.js';
import type { HistoryKind } from '../market/history-service.js';
import { PUBLIC_READ_HEADERS } from './cors.js';
import { replyWith, type Representation } from './representation.js';
import { recordRequest, requestIdFor } from './request-context.js';

/** Answers the request and returns true, or returns false having touched nothing. */
export type FastReads = (req: IncomingMessage, res: ServerResponse) => boolean;

interface Found {
  /** The Koa route pattern the request matches, for the metrics label. */
  route: string;
  representation: Representation;
  maxAgeSeconds: number;
}

const SENTIMENT_PREFIXES = [
  ['/api/market/sentiment/', '/api/market/sentiment/:token'],
  ['/sentiment/', '/sentiment/:token'],
] as const;
const STATS_PREFIX = '/api/market/stats/';
const HISTORY_ROUTES = [
  ['/api/market/sentiment/', 'sentiment', '/api/market/sentiment/:token/history'],
  ['/api/market/tokens/', 'token', '/api/market/tokens/:token/history'],
] as const;
const HISTORY_SUFFIX = '/history';

/** The one non-empty path segment after `prefix` (a route's `:param`), or undefined. */
function segmentAfter(path: string, prefix: string): string | undefined {
  if (!path.startsWith(prefix)) return undefined;
  const value = path.slice(prefix.length);
  return value !== '' && !value.includes('/') ? value : undefined;
}

export function fastReads(deps: Pick<ApiDeps, 'snapshots' | 'stats' | 'history' | 'logger' | 'metrics'>): FastReads {
  const { snapshots, stats, history } = deps;

  const whole = (name: 'trending' | 'trending-cas'): Found | undefined => {
    const snapshot = snapshots.peek(name);
    if (!snapshot) return undefined;
    const { representation } = snapshot.view;
    return { route: `/api/market/${name}`, representation, maxAgeSeconds: secondsLeft(snapshot.expiresAt) };
  };

  const newsPage = (query: string): Found | undefined => {
    const snapshot = snapshots.peek('news');
    if (!snapshot) return undefined;
    const { page, limit } = parseNewsQuery(parseQuery(query));
    const representation = snapshot.view.pages.page(page, limit);
    return { route: '/api/market/news', representation, maxAgeSeconds: secondsLeft(snapshot.expiresAt) };
  };

  const sentiment = (route: string, raw: string): Found | undefined => {
    const snapshot = snapshots.peek('sentiment');
    const representation = snapshot?.view.byToken.get(parseTokenParam(decodeURIComponent(raw)));
    if (!snapshot || !representation) return undefined;
    return { route, representation, maxAgeSeconds: secondsLeft(snapshot.expiresAt) };
  };

  const statsHit = (raw: string): Found | undefined => {
    const answer = stats.peek(parseUsernameParam(decodeURIComponent(raw)));
    return answer && { route: `${STATS_PREFIX}:username`, ...answer };
  };

  /** A history answer prepared for the current refresh (the first read of each goes through Koa). */
  const historyRead = (path: string, query: string): Found | undefined => {
    for (const [prefix, kind, route] of HISTORY_ROUTES) {
      const token = segmentAfter(path.slice(0, -HISTORY_SUFFIX.length), prefix);
      if (token === undefined) continue;
      const answer = history.peek(kind as HistoryKind, parseTokenParam(decodeURIComponent(token)), parseHistoryQuery(parseQuery(query)));
      return answer && { route, ...answer };
    }
    return undefined;
  };

  const find = (url: string): Found | undefined => {
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    if (path.endsWith(HISTORY_SUFFIX)) return historyRead(path, queryAt === -1 ? '' : url.slice(queryAt + 1));
    if (path === '/api/market/trending' || path === '/api/market/trending-cas') {
      // `?at=` reads history: Koa answers it.
      if (queryAt !== -1 && parseQuery(url.slice(queryAt + 1)).at !== undefined) return undefined;
      return whole(path === '/api/market/trending' ? 'trending' : 'trending-cas');
    }
    if (path === '/api/market/news') return newsPage(queryAt === -1 ? '' : url.slice(queryAt + 1));
    for (const [prefix, route] of SENTIMENT_PREFIXES) {
      const token = segmentAfter(path, prefix);
      if (token !== undefined) return sentiment(route, token);
    }
    const username = segmentAfter(path, STATS_PREFIX);
    return username === undefined ? undefined : statsHit(username);
  };

  return (req, res) => {
    if (req.method !== 'GET' || req.url === undefined) return false;
    if (needsKeyCheck(req)) return false; // a presented API key is checked (or refused) by Koa
    const started = performance.now();
    let found: Found | undefined;
    try {
      found = find(req.url);
    } catch {
      return false; // invalid input: Koa renders the 400
    }
    if (!found) return false;

    const sentId = req.headers['x-request-id'];
    const requestId = requestIdFor(typeof sentId === 'string' ? sentId : undefined);
    const reply = replyWith(found.representation, found.maxAgeSeconds, req.headers['if-none-match'], req.headers['accept-encoding']);
    const headers: Record<string, string> = { 'X-Request-Id': requestId, ...PUBLIC_READ_HEADERS, ...reply.headers };
    if (reply.body) headers['Content-Length'] = String(reply.body.length);
    res.writeHead(reply.status, headers);
    res.end(reply.body ?? undefined);
    recordRequest(deps, { requestId, method: 'GET', url: req.url, route: found.route, status: reply.status, started });
    return true;
  };
}
