/** A request id, one log line and one metrics observation per request, for Koa and the fast path alike. */
import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../../../shared/logger.js';
import type { HttpMetrics } from '../metrics.js';

const SANE_ID = /^[\w.:@/+=-]{1,128}$/;

/** The request ids one API process makes (deps.ts makes one); Koa's middleware and the fast path share it. */
export class RequestIds {
  /** Random per process: replicas' and restarts' ids never collide. */
  private readonly tag = randomBytes(9).toString('base64url');
  private made = 0;

  /** The client's X-Request-Id when sane, else the tag and a count: unique without random bytes per request. */
  for(sent: string | undefined): string {
    if (sent !== undefined && SANE_ID.test(sent)) return sent;
    this.made += 1;
    return `${this.tag}-${this.made.toString(36)}`;
  }
}

export interface Observability {
  logger: Logger;
  metrics: HttpMetrics;
}

export interface FinishedRequest {
  requestId: string;
  method: string;
  url: string;
  /** The route pattern, or 'unmatched'. */
  route: string;
  status: number;
  /** performance.now() when the request arrived. */
  started: number;
  /** A read sent as a POST (an MCP tool call): logged as a GET read is. */
  read?: boolean;
}

/** A read slower than this is logged whatever its status. */
const SLOW_REQUEST_MS = 1000;

const redactKeys = (url: string) => (url.includes('ms_live_') ? url.replace(/ms_live_\w*/g, 'ms_live_***') : url);

/**
 * Every request's latency, and its log line at info only when the router's log does not say it
 * (an error, a slow answer, a write); a successful read is at debug: a line per cached read cost
 * the bench most of its CPU and 856 MB of log.
 */
export function recordRequest({ logger, metrics }: Observability, request: FinishedRequest): void {
  const ms = performance.now() - request.started;
  metrics.observe(request.method, request.route, request.status, ms / 1000);
  const quietRead =
    request.status < 400 && ms < SLOW_REQUEST_MS && (request.method === 'GET' || request.method === 'HEAD' || request.read === true);
  if (quietRead && !logger.isLevelEnabled('debug')) return;
  logger[quietRead ? 'debug' : 'info'](
    // A key sent in the URL is refused (400), but this line is written anyway: not with the key.
    {
      reqId: request.requestId,
      method: request.method,
      url: redactKeys(request.url),
      status: request.status,
      ms: Math.round(ms * 10) / 10,
    },
    'request',
  );
}

export function requestContext(observability: Observability & { requestIds: RequestIds }): Middleware {
  const { requestIds } = observability;
  return async (ctx, next) => {
    const started = performance.now();
    const requestId = requestIds.for(ctx.get('X-Request-Id') || undefined);
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      recordRequest(observability, {
        requestId,
        method: ctx.method,
        url: ctx.url,
        route: typeof route === 'string' ? route : 'unmatched',
        status: ctx.status,
        started,
        read: ctx.state.read === true,
      });
    }
  };
}
