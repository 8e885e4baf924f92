/** Everything the API's routes need, built once per process from the configuration. */
import type { EventEmitter } from 'node:events';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../../../shared/config.js';
import type { Logger } from '../../../shared/logger.js';
import {
  queueBaseOptions,
  REFRESH_QUEUE,
  requestStats,
  STATS_QUEUE,
  type RefreshJobData,
  type StatsJobData,
} from '../../../shared/queues.js';
import { closeRedis, createRedis } from '../../../shared/redis.js';
import { activeRefreshJobs } from '../../../shared/snapshot-kinds.js';
import { MindshareService } from './market/mindshare-service.js';
import { CallersService } from './market/callers-service.js';
import { callersReads } from './market/callers-reads.js';
import { AlertStore } from '../../../shared/alerts/alert-store.js';
import { ALERT_DELIVERY_QUEUE, type DeliveryJobData } from '../../../shared/alerts/delivery-queue.js';
import { AlertsService } from './alerts/alerts-service.js';
import { registerAlertMetrics } from './alerts/alert-metrics.js';
import { AlertFeed } from './alerts/alert-feed.js';
import { ApiKeyVerifier } from './auth/api-key-verifier.js';
import { ApiKeyStore } from './auth/api-keys.js';
import { createAuthServices, type AuthServices } from './auth/auth-services.js';
import { HistoryService } from './market/history-service.js';
import { JobWaiter } from './market/job-waiter.js';
import { MissBudget } from './market/miss-budget.js';
import { resolvers, type Resolvers } from './market/read-resolvers.js';
import { refreshRequests } from './market/refresh-requests.js';
import { forcedRefresh, type ForceRefresh } from './market/forced-refresh.js';
import { missCeiling } from './market/miss-ceiling.js';
import { SnapshotCache } from './market/snapshot-cache.js';
import { SnapshotWatch } from './market/snapshot-watch.js';
import { StatsService } from './market/stats-service.js';
import { EncodingNegotiator } from './http/representation.js';
import { RequestIds } from './http/request-context.js';
import { HttpMetrics } from './metrics.js';
import { currentState } from './stream/current-state.js';
import { StreamHub } from './stream/stream-hub.js';
import { registerOpsMetrics } from './ops-metrics.js';
import { registerProviderMetrics } from './provider-metrics.js';

/** How long a request waits for the worker (docs/decisions.md#d7, #d8: answered within 10 s). */
const WORK_WAIT_MS = 9_000;

export interface ApiDeps {
  config: Config;
  logger: Logger;
  /** Fast-failing. */
  redis: Redis;
  snapshots: SnapshotCache;
  stats: StatsService;
  missBudget: MissBudget;
  metrics: HttpMetrics;
  auth: AuthServices;
  apiKeys: ApiKeyStore;
  /** Checks presented keys; the fast path asks it which keys were found good moments ago. */
  keyVerifier: ApiKeyVerifier;
  history: HistoryService;
  /** How each kind of market read is answered: Koa's routes, the fast path and the MCP tools share them. */
  reads: Resolvers;
  /** Which compressed form each Accept-Encoding gets: every representation sent uses it. */
  encodings: EncodingNegotiator;
  requestIds: RequestIds;
  /** The server-sent-events fan-out; main() closes it before draining the server. */
  stream: StreamHub;
  alerts: AlertsService;
  alertFeed: AlertFeed;
  /** Asks the worker to refresh every shared snapshot now, each at most once per FORCED_REFRESH_SPACING_MS; does not wait. */
  refreshAll: ForceRefresh;
  close(): Promise<void>;
}

export async function createApiDeps(config: Config, logger: Logger): Promise<ApiDeps> {
  const redis = createRedis(config, 'fast', 'api', logger);
  const subscriber = createRedis(config, 'blocking', 'api-subscriber', logger);
  // BullMQ leaves the connections it is handed open when it closes: close() closes them.
  const bullConnections: Redis[] = [];
  const bull = (role: 'producer' | 'blocking', name: string) => {
    const connection = createRedis(config, role, name, logger);
    bullConnections.push(connection);
    return { ...queueBaseOptions(), connection };
  };
  const refreshQueue = new Queue<RefreshJobData>(REFRESH_QUEUE, bull('producer', 'api-refresh-producer'));
  const statsQueue = new Queue<StatsJobData>(STATS_QUEUE, bull('producer', 'api-stats-producer'));
  const refreshEvents = new QueueEvents(REFRESH_QUEUE, bull('blocking', 'api-refresh-events'));
  const statsEvents = new QueueEvents(STATS_QUEUE, bull('blocking', 'api-stats-events'));
  const alertQueue = new Queue<DeliveryJobData>(ALERT_DELIVERY_QUEUE, bull('producer', 'api-alert-producer'));
  const bullmq: EventEmitter[] = [refreshQueue, statsQueue, refreshEvents, statsEvents, alertQueue];
  for (const emitter of bullmq) emitter.on('error', (error: Error) => logger.debug({ err: error.message }, 'bullmq connection error'));
  const refreshWaiter = new JobWaiter(refreshQueue, refreshEvents);
  const statsWaiter = new JobWaiter(statsQueue, statsEvents);

  const metrics = new HttpMetrics();
  // One watch tells both the snapshot cache and the stream hub that a refresh landed.
  const watch = new SnapshotWatch({ redis, subscriber, logger });
  const snapshots = new SnapshotCache({
    redis,
    watch,
    logger,
    refreshIntervalMs: config.refreshIntervalMs,
    refreshAbsent: refreshRequests({ redis, queue: refreshQueue, waiter: refreshWaiter, waitMs: WORK_WAIT_MS, registry: metrics.registry }),
  });
  const stats = new StatsService(redis, (username) => statsWaiter.enqueueAndWait(() => requestStats(statsQueue, username), WORK_WAIT_MS), {
    admit: missCeiling(redis, statsQueue, { perMinute: config.statsMissCeilingPerMinute, maxWaiting: config.statsQueueMaxWaiting }),
  });

  // Start-up must not hang on a Redis that is down: the platform wants the port bound.
  // Events missed before the listeners are ready only cost a waiter its timeout.
  const stream = new StreamHub({
    redis,
    watch,
    logger,
    maxClients: config.streamMaxClients,
    maxClientsPerAddress: config.streamMaxClientsPerAddress,
    ipv6Prefix: config.ipv6SubnetPrefix,
    resumeMaxEvents: config.streamResumeMaxEvents,
    currentState: currentState(snapshots),
  });
  const alertSubscriber = createRedis(config, 'blocking', 'api-alert-subscriber', logger);
  const alertFeed = new AlertFeed({
    redis,
    subscriber: alertSubscriber,
    logger,
    maxClients: config.streamMaxClients,
    maxClientsPerUser: 5,
  });
  snapshots.start();
  const ready = Promise.all([
    watch.start(),
    stream.start(),
    alertFeed.start(),
    refreshEvents.waitUntilReady(),
    statsEvents.waitUntilReady(),
  ]).then(
    () => 'ready' as const,
    () => 'failed' as const,
  );
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(resolve, 5000, 'timeout').unref());
  if ((await Promise.race([ready, timeout])) !== 'ready') {
    logger.warn('Redis is not answering yet; the API starts anyway and reconnects by itself');
  }

  registerAlertMetrics(metrics.registry, redis);
  registerOpsMetrics(metrics.registry, { redis, queues: [refreshQueue, statsQueue, alertQueue] });
  registerProviderMetrics(metrics.registry, redis);

  const auth = createAuthServices(config, redis, logger);
  const apiKeys = new ApiKeyStore(redis);
  const history = new HistoryService(redis, snapshots, config.historyDays * 86_400_000);
  return {
    config,
    logger,
    redis,
    snapshots,
    stats,
    missBudget: new MissBudget(redis, {
      limit: config.statsMissBudget,
      keyLimit: config.apiKeyStatsMissBudget,
      ipv6Prefix: config.ipv6SubnetPrefix,
    }),
    history,
    reads: resolvers({
      snapshots,
      stats,
      history,
      mindshare: new MindshareService(redis, snapshots),
      callers: callersReads(new CallersService(redis, snapshots, config.callers), config.callers.horizonMs),
      windows: config.trendingWindows,
    }),
    encodings: new EncodingNegotiator(),
    requestIds: new RequestIds(),
    stream,
    metrics,
    auth,
    apiKeys,
    keyVerifier: new ApiKeyVerifier(apiKeys, auth.users),
    alertFeed,
    alerts: new AlertsService({ store: new AlertStore(redis), redis, config: config.alerts, deliveries: alertQueue }),
    refreshAll: forcedRefresh(redis, refreshQueue, undefined, activeRefreshJobs(config.trendingWindows)),
    async close() {
      stream.close();
      alertFeed.close();
      watch.stop();
      auth.passwords.close();
      await Promise.allSettled([refreshEvents.close(), statsEvents.close(), refreshQueue.close(), statsQueue.close(), alertQueue.close()]);
      await Promise.all([redis, subscriber, alertSubscriber, ...bullConnections].map(closeRedis));
    },
  };
}
