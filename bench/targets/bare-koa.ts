/**
 * (b) The framework ceiling: Koa 3 + @koa/router, the API's route patterns, each captured body
 * served from memory (304 on a matching If-None-Match). No other middleware, no logging.
 */
import Router from '@koa/router';
import Koa from 'koa';
import { loadBodies, targetArgs } from './bodies.js';

const { port, bodiesFile } = targetArgs();
const bodies = loadBodies(bodiesFile);

const app = new Koa();
const router = new Router();
for (const pattern of [
  '/api/market/trending',
  '/api/market/trending-cas',
  '/api/market/news',
  '/api/market/stats/:username',
  '/api/market/sentiment/:token',
  '/api/market/mindshare',
  '/api/market/tokens/:token/mindshare',
]) {
  router.get(pattern, (ctx) => {
    const served = bodies.get(ctx.url);
    if (!served) return;
    if (ctx.get('If-None-Match') === served.etag) {
      ctx.set('ETag', served.etag);
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = served.body;
  });
}
app.use(router.routes());
app.listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
// A normal exit on SIGTERM, so a --cpu-prof profile gets written.
process.once('SIGTERM', () => process.exit(0));
