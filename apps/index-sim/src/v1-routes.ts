// The provider's API proper: route matching, query validation and the answer of each route.
// Faults, authentication and counting happen around these in server.ts.

import { trendingContracts } from './contract-trends.js';
import { BAD_REQUEST, type Reply, reply } from './http.js';
import { decodeCursor } from './posts.js';
import type { World } from './world.js';
import { overWindow, windowParam } from './windows.js';

export const V1_TEMPLATES = ['/v1/trending/tokens', '/v1/trending/contracts', '/v1/posts', '/v1/accounts/:username'] as const;
export type V1Template = (typeof V1_TEMPLATES)[number];

export interface V1Match {
  readonly template: V1Template;
  /** Answers the request at simulated time `now`. */
  run(world: World, query: URLSearchParams, now: number): Reply;
}

/** A whole number in [min, max]; `fallback` when absent; undefined when invalid. */
function intParam(query: URLSearchParams, name: string, min: number, max: number, fallback: number): number | undefined {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\d{1,7}$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= min && value <= max ? value : undefined;
}

function sinceParam(query: URLSearchParams): number | undefined | 'invalid' {
  const raw = query.get('since');
  if (raw === null) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(raw) ? Date.parse(raw) : Number.NaN;
  return Number.isNaN(ms) ? 'invalid' : ms;
}

function tokens(world: World, query: URLSearchParams, now: number): Reply {
  const limit = intParam(query, 'limit', 1, 100, 50);
  const windowMs = windowParam(query);
  if (limit === undefined || windowMs === undefined) return BAD_REQUEST;
  return reply(200, { generated_at: new Date(now).toISOString(), tokens: world.trendingTokens(now, limit, windowMs) });
}

function contracts(world: World, query: URLSearchParams, now: number): Reply {
  const limit = intParam(query, 'limit', 1, 100, 50);
  const windowMs = windowParam(query);
  if (limit === undefined || windowMs === undefined) return BAD_REQUEST;
  const rows = trendingContracts(world.seed, now).map((row) => ({
    ...row,
    mentions: overWindow(row.mentions, windowMs),
    smart_mentions: overWindow(row.smart_mentions, windowMs),
  }));
  return reply(200, { generated_at: new Date(now).toISOString(), contracts: rows.slice(0, limit) });
}

function posts(world: World, query: URLSearchParams, now: number): Reply {
  const limit = intParam(query, 'limit', 1, 500, 100);
  const since = sinceParam(query);
  const rawCursor = query.get('cursor');
  const cursorSlot = rawCursor === null ? undefined : decodeCursor(rawCursor);
  if (limit === undefined || since === 'invalid' || (rawCursor !== null && cursorSlot === undefined)) return BAD_REQUEST;
  return reply(200, world.postsPage(now, { since, limit, cursorSlot }));
}

function account(username: string): V1Match['run'] {
  return (world) => {
    const found = world.findAccount(username);
    return found ? reply(200, found) : reply(404, { error: 'account_not_found' });
  };
}

const STATIC: ReadonlyMap<string, V1Match> = new Map([
  ['/v1/trending/tokens', { template: '/v1/trending/tokens', run: tokens }],
  ['/v1/trending/contracts', { template: '/v1/trending/contracts', run: contracts }],
  ['/v1/posts', { template: '/v1/posts', run: posts }],
]);

/** The route for a /v1 path, or undefined (the caller answers 404 not_found). */
export function matchV1(pathname: string): V1Match | undefined {
  const fixed = STATIC.get(pathname);
  if (fixed) return fixed;
  const match = /^\/v1\/accounts\/([^/]+)$/.exec(pathname);
  if (!match?.[1]) return undefined;
  let username = match[1];
  try {
    username = decodeURIComponent(username);
  } catch {
    // Broken percent-encoding cannot name a tracked account; look it up as-is and miss.
  }
  // Anything that is not a tracked account, well-formed or not, is account_not_found.
  return { template: '/v1/accounts/:username', run: account(username) };
}
