// The starters live in dev/ so the bench and the dev scripts can use them too (nothing outside test/ imports test/).
export * from '../../dev/redis-server.js';
export * from '../../dev/redis-cluster.js';

/**
 * `TEST_REDIS=cluster` (`npm run test:cluster`): the tests that run on the shared Redis run on a
 * shared three-master Redis Cluster instead, through REDIS_CLUSTER_NODES.
 */
export const onTestCluster = process.env.TEST_REDIS === 'cluster';
