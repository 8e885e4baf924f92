/**
 * Cached market reads answered straight from node:http, before Koa. Serving a snapshot held in
 * memory costs little more than writing its bytes; Koa's per-request context, middleware chain
 * and router would double that (see `npm run bench`), and pollers make these reads nearly all
 * of the traffic.
 *
 * The routes are the table's (apps/api/src/market/reads.ts), matched here by their patterns; each is
 * answered by the same resolver Koa's route uses (market/read-resolvers.ts), and sent through
 * the same description of a read (readReply: headers; recordRequest: metrics and log). The fast
 * path answers only what it can answer completely from memory; everything else (other methods
 * and routes, invalid input, errors, misses) goes to Koa untouched, so the error contract keeps
 * one owner.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery, type ParsedUrlQuery } from 'node:querystring';
import { MARKET_READS, READ_NAMES } from '../../market/reads.js';
import type { ReadSpec } from '../../market/read-spec.js';
import { fastCredential } from '../../auth/api-key-auth.js';
import type { ApiDeps } from '../../deps.js';
import { boundRead, type BoundRead, type Resolvers } from '../../market/read-resolvers.js';
import { readReply, writeRead } from '../../http/representation.js';
import { recordRequest } from '../../http/request-context.js';

/** Answers the request and returns true, or returns false having touched nothing. */
export type FastReads = (req: IncomingMessage, res: ServerResponse) => boolean;

interface Route {
  read: ReadSpec;
  resolver: BoundRead;
  /** For a pattern with one `:param`: the text around it. */
  prefix: string;
  suffix: string;
  param: string;
}

const NO_QUERY: ParsedUrlQuery = Object.freeze({});
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The table's paths as a matcher: a Map for the static ones, prefix and suffix around the one
 * parameter for the others. A path it does not match exactly (a trailing slash, another case)
 * is left to Koa's router, which answers it the same way.
 */
function compile(resolve: Resolvers) {
  const exact = new Map<string, Route>();
  const withParam: Route[] = [];
  for (const name of READ_NAMES) {
    const read: ReadSpec = MARKET_READS[name];
    const resolver = boundRead(resolve, read);
    const match = /^([^:]*):(\w+)(.*)$/.exec(read.path);
    if (!match) exact.set(read.path, { read, resolver, prefix: read.path, suffix: '', param: '' });
    else if (match[3]!.includes(':')) throw new Error(`the fast path matches one parameter per route: ${read.path}`);
    else withParam.push({ read, resolver, prefix: match[1]!, suffix: match[3]!, param: match[2]! });
  }
  return (path: string): { route: Route; params: Readonly<Record<string, string>> } | undefined => {
    const route = exact.get(path);
    if (route) return { route, params: NO_PARAMS };
    for (const candidate of withParam) {
      const { prefix, suffix } = candidate;
      if (path.length <= prefix.length + suffix.length || !path.startsWith(prefix) || !path.endsWith(suffix)) continue;
      const raw = path.slice(prefix.length, path.length - suffix.length);
      if (raw.includes('/')) continue;
      return { route: candidate, params: { [candidate.param]: decodeURIComponent(raw) } };
    }
    return undefined;
  };
}

export function fastReads(deps: Pick<ApiDeps, 'reads' | 'encodings' | 'requestIds' | 'logger' | 'metrics' | 'keyVerifier'>): FastReads {
  const match = compile(deps.reads);

  return (req, res) => {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined) return false;
    // A key Redis found good moments ago is served as an anonymous read is; any other key is
    // checked (or refused) by Koa, which asks Redis and remembers the answer for the next reads.
    if (fastCredential(req, deps.keyVerifier) === 'koa') return false;
    const started = performance.now();
    const queryAt = url.indexOf('?');
    let route: Route;
    let answer;
    try {
      const found = match(queryAt === -1 ? url : url.slice(0, queryAt));
      if (!found) return false;
      route = found.route;
      const query = queryAt === -1 ? NO_QUERY : parseQuery(url.slice(queryAt + 1));
      answer = route.resolver.peek({ params: found.params, query });
    } catch {
      return false; // invalid input: Koa renders the 400
    }
    if (!answer) return false;

    const sentId = req.headers['x-request-id'];
    const requestId = deps.requestIds.for(typeof sentId === 'string' ? sentId : undefined);
    const reply = readReply(answer, requestId, req.headers['if-none-match'], req.headers['accept-encoding'], deps.encodings);
    writeRead(res, reply);
    recordRequest(deps, { requestId, method: 'GET', url, route: route.read.path, status: reply.status, started });
    return true;
  };
}
