/**
 * (c) The naive design, the reference: Koa 3 + @koa/router reading Redis on every request,
 * JSON.parse, and Koa serialising the object again. Trending reads the snapshot key the worker
 * writes; a news page reads a key holding that one page (the most favourable naive layout:
 * parsing the whole 10,000-post snapshot per request would be two orders of magnitude slower).
 */
import Router from '@koa/router';
import { Redis } from 'ioredis';
import Koa from 'koa';
import { snapshotKeys } from '../../shared/snapshot-keys.js';
import { targetArgs } from './bodies.js';
import { naivePageKey } from './naive-keys.js';

const { port, redisUrl } = targetArgs();
const redis = new Redis(redisUrl, { protocol: 2 });

async function readJson(key: string): Promise<unknown> {
  const raw = await redis.get(key);
  if (raw === null) throw new Error(`${key} is missing`);
  return JSON.parse(raw) as unknown;
}

const app = new Koa();
const router = new Router();
router.get('/api/market/trending', async (ctx) => {
  ctx.body = await readJson(snapshotKeys.snapshot('trending'));
});
router.get('/api/market/news', async (ctx) => {
  const page = Number(ctx.query.page ?? 1);
  const limit = Number(ctx.query.limit ?? 20);
  ctx.body = await readJson(naivePageKey(page, limit));
});
app.use(router.routes());
app.listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
// A normal exit on SIGTERM, so a --cpu-prof profile gets written.
process.once('SIGTERM', () => process.exit(0));
