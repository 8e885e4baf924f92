/**
 * Issue 38 item 1's loop, reproducible: a whole stack in this process (a private redis-server,
 * the index simulator, one worker, the API on a loopback port), an admin token, then five
 * `POST /api/admin/refresh` every half second for 20 s. Prints the upstream calls each list
 * made in those 20 s (the simulator's count per route) and the answers' statuses.
 *
 *   npx tsx dev/admin-refresh-loop.ts [seconds=20]
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hashPassword } from '../apps/api/src/auth/passwords.js';
import { UserStore } from '../apps/api/src/auth/users.js';
import { createRequestListener } from '../apps/api/src/app.js';
import { createApiDeps } from '../apps/api/src/deps.js';
import { limitsFrom, startWebServer, stopWebServer } from '../apps/api/src/server.js';
import { startSimulator } from '../apps/index-sim/src/server.js';
import { createIndexClient } from '../apps/worker/src/providers/index-client.js';
import { startWorker } from '../apps/worker/src/worker.js';
import { loadConfig } from '../shared/config.js';
import { createLogger } from '../shared/logger.js';
import { createRedis } from '../shared/redis.js';
import { startTestRedis } from './redis-server.js';

const seconds = Number(process.argv[2] ?? 20);
const redisServer = await startTestRedis();
const sim = await startSimulator();
const config = loadConfig({ NODE_ENV: 'test', REDIS_URL: redisServer.url, INDEX_API_URL: sim.url, LOG_LEVEL: 'silent' });
const logger = createLogger(config, 'refresh-loop');
const worker = await startWorker({
  redis: config,
  refreshEveryMs: config.refreshIntervalMs,
  provider: createIndexClient({ baseUrl: sim.url, apiKey: undefined }),
  logger,
  upstreamPerMinute: config.indexRateLimitPerMinute,
  historyDays: config.historyDays,
});
const deps = await createApiDeps(config, logger);
const server: Server = await startWebServer(createRequestListener(deps), 0, '127.0.0.1', limitsFrom(config));
const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const redis = createRedis(config, 'worker', 'refresh-loop');
await new UserStore(redis).createOrReplace({
  email: 'admin@example.com',
  role: 'admin',
  passwordHash: await hashPassword('admin password 1'),
});
const login = await fetch(`${api}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'admin@example.com', password: 'admin password 1' }),
});
const { token } = (await login.json()) as { token: string };

// The schedule's first runs first: then every call counted is one the loop caused.
while ((await fetch(`${api}/readyz`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
await new Promise((resolve) => setTimeout(resolve, 2_000));
sim.resetStats();

const statuses: Record<string, number> = {};
const deadline = Date.now() + seconds * 1000;
while (Date.now() < deadline) {
  const asks = Array.from({ length: 5 }, () =>
    fetch(`${api}/api/admin/refresh`, { method: 'POST', headers: { authorization: `Bearer ${token}` } }).then(async (res) => {
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }),
  );
  await Promise.all([...asks, new Promise((resolve) => setTimeout(resolve, 500))]);
}
// Let the runs the last asks started finish before counting.
await new Promise((resolve) => setTimeout(resolve, 3_000));
const calls = Object.fromEntries(Object.entries(sim.stats()).filter(([, count]) => count > 0));
console.log(JSON.stringify({ seconds, answers: statuses, upstreamCallsPerRoute: calls }, null, 2));

await redis.quit();
await stopWebServer(server, { deadlineMs: 1000, idleCloseMs: 0 });
await deps.close();
await worker.close(2000);
await sim.close();
await redisServer.stop();
