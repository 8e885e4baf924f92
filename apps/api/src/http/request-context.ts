/**
 * Outermost middleware: a request id (echoed when the client sent a sane one), one log line
 * and one metrics observation per request.
 */
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../../../shared/logger.js';
import type { HttpMetrics } from '../metrics.js';

const SANE_ID = /^[\w.:@/+=-]{1,128}$/;

export function requestContext(logger: Logger, metrics: HttpMetrics): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    const sent = ctx.get('X-Request-Id');
    const requestId = SANE_ID.test(sent) ? sent : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      metrics.observe(ctx.method, typeof route === 'string' ? route : 'unmatched', ctx.status, ms / 1000);
      logger.info({ reqId: requestId, method: ctx.method, url: ctx.url, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  };
}
