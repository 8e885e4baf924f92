/**
 * The web process. With WEB_CONCURRENCY > 1 the primary forks that many API processes
 * (node:cluster shares the port); each is a full, stateless API.
 */
import cluster from 'node:cluster';
import { loadConfigOrExit } from '../../../shared/config.js';
import { createLogger } from '../../../shared/logger.js';
import { checkRedisPolicyFirst, watchRedisPolicy } from '../../../shared/redis-policy.js';
import { onShutdown, refuseToRun } from '../../../shared/shutdown.js';
import { createRequestListener } from './app.js';
import { createApiDeps } from './deps.js';
import { respawnBackoff } from './respawn.js';
import { limitsFrom, startWebServer, stopWebServer } from './server.js';

const config = loadConfigOrExit();
const logger = createLogger(config, 'api');

if (config.webConcurrency > 1 && cluster.isPrimary) {
  let stopping = false;
  const startedAt = new Map<number, number>();
  const pending = new Set<NodeJS.Timeout>();
  const fork = () => startedAt.set(cluster.fork().id, Date.now());
  const nextDelay = respawnBackoff();
  for (let i = 0; i < config.webConcurrency; i += 1) fork();
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    const delayMs = nextDelay(Date.now() - (startedAt.get(worker.id) ?? 0));
    startedAt.delete(worker.id);
    logger.warn({ pid: worker.process.pid, code, delayMs }, `API process exited; starting another in ${delayMs} ms`);
    const timer = setTimeout(() => {
      pending.delete(timer);
      if (!stopping) fork();
    }, delayMs);
    pending.add(timer);
  });
  // Each API process drains itself; the platform's SIGTERM reaches them too, and a repeated one is harmless.
  onShutdown(logger, async () => {
    stopping = true;
    for (const timer of pending) clearTimeout(timer);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    await new Promise<void>((resolve) => {
      const check = () => (Object.keys(cluster.workers ?? {}).length === 0 ? resolve() : setTimeout(check, 100));
      check();
    });
  });
} else {
  if (config.jwtSecretGenerated) logger.warn('JWT_SECRET is not set: using a random secret for this run (tokens die with it)');
  const policy = { production: config.nodeEnv === 'production', refuse: refuseToRun };
  await checkRedisPolicyFirst(config, policy);
  const deps = await createApiDeps(config, logger);
  watchRedisPolicy(deps.redis, logger, policy);
  const server = await startWebServer(createRequestListener(deps), config.port, undefined, limitsFrom(config));
  logger.info({ port: config.port }, 'API listening');
  onShutdown(logger, async () => {
    // Event streams never finish by themselves: end them first, or the drain waits its full 20 s.
    deps.stream.close();
    deps.alertFeed.close();
    await stopWebServer(server);
    await deps.close();
  });
}
