// The Cluster leg (`npm run test:cluster`): the test files that prove each of the service's Redis
// code paths on a three-master Redis Cluster, one file at least per path, run again with the run's
// shared Redis a cluster. What Cluster can break is a command's keys: a script or MULTI whose keys
// are not in one slot (CROSSSLOT), a blocking read or a subscription on the wrong node, BullMQ's
// keys without their hash tag. Every script, stream, channel and queue is in a file below; the
// other files that stand a stack up read and write through the same code, so running all of them
// again (64 files, as this leg did) doubled the suite's time for no path of its own.
// test/lint/cluster-leg.test.ts holds that every Lua script in shared/lua/ is named here.
const PATHS = {
  // Snapshots: the writeRefresh script, history streams, reads and ?at=
  'test/worker/store-fetched.test.ts': ['writeRefresh'],
  'test/api/market-routes.test.ts': ['snapshot reads'],
  'test/api/history/history-routes.test.ts': ['history streams'],
  'test/api/export/export-routes.test.ts': ['history XRANGE across kinds'],
  // Users, logins, keys
  'test/api/auth/login.test.ts': ['putUser', 'setPasswordHash', 'reserveLoginAttempt', 'releaseLoginAttempt'],
  'test/api/auth/throttle-bounds.test.ts': ['login throttle keys'],
  'test/api/auth/users-command.test.ts': ['the users command on a cluster'],
  'test/api/auth/api-key-lifecycle.test.ts': ['createApiKey', 'useApiKey', 'revokeApiKey'],
  'test/api/market/miss-ceiling.test.ts': ['chargeMissBudget'],
  // Queues (BullMQ) and the worker's records
  'test/api/stats-routes.test.ts': ['stats single flight'],
  'test/worker/stats-jobs.test.ts': ['stats queue'],
  'test/api/market/refresh-requests.test.ts': ['refresh queue'],
  'test/worker/schedules.test.ts': ['job schedulers'],
  'test/worker/upstream-faults.test.ts': ['recordRefreshFailure'],
  'test/worker/mindshare/mindshare-counts.test.ts': ['countMentions'],
  'test/worker/callers/callers.test.ts': ['recordCalls', 'recordBreakouts'],
  'test/worker/stories/stories-refresh.test.ts': ['stories state'],
  // The live stream: pub/sub and stream reads
  'test/api/stream/stream.test.ts': ['events stream'],
  'test/api/stream/stream-resume.test.ts': ['Last-Event-ID reads'],
  'test/api/stream/stream-replicas.test.ts': ['pub/sub across replicas'],
  // Alerts
  'test/api/alerts/alerts-routes.test.ts': ['createAlertRule', 'writeAlertRule'],
  'test/api/alerts/alert-rule-races.test.ts': ['rule revisions', 'users remove'],
  'test/api/alerts/alert-test-budget.test.ts': ['chargeAlertTestBudget'],
  'test/api/alerts/alert-stream.test.ts': ['firings stream'],
  'test/worker/alerts/alert-exactly-once.test.ts': ['commitAlertEvaluation'],
  'test/worker/alerts/alert-delivery.test.ts': ['delivery queue'],
  'test/worker/alerts/alert-delivery-caps.test.ts': ['admitDeliveries', 'gateHost', 'recordHostAttempt'],
  // Moving a Redis to a cluster
  'test/scripts/redis-migrate.test.ts': ['redis-migrate'],
};

export const CLUSTER_PATHS = PATHS;

export default {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  timeout: 20000,
  spec: Object.keys(PATHS).sort(),
};
