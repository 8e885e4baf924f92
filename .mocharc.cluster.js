// The Cluster leg (`npm run test:cluster`): the test files that use the run's shared Redis
// (they call startStack() or sharedRedis(), directly or through a test/ helper) run again with
// that Redis a three-master Redis Cluster. The other files would run exactly as in `npm test`
// (no Redis, or one of their own), so this leg leaves them out; so are the browser tests, whose
// pages show what the API answers whatever Redis is behind it, and the files of HTTP_SURFACE below.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = import.meta.dirname;

const SUPPORT = ['test/support/stack.ts', 'test/support/shared-redis.ts'].map((file) => resolve(ROOT, file));
/** A call of the two (the support files that define them do not count). */
const USES_SHARED = /\b(startStack|sharedRedis)\(/;

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The test/ files a file imports (relative specifiers; `.js` names the `.ts` source). */
function imports(file) {
  const found = [];
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
    const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
    if (target.startsWith(resolve(ROOT, 'test') + '/') && existsSync(target)) found.push(target);
  }
  return found;
}

const reaches = new Map();
function reachesShared(file) {
  if (SUPPORT.includes(file)) return false;
  if (!reaches.has(file)) {
    if (USES_SHARED.test(readFileSync(file, 'utf8'))) return reaches.set(file, true).get(file);
    reaches.set(file, false); // an import cycle ends here
    reaches.set(file, imports(file).some(reachesShared));
  }
  return reaches.get(file);
}

/**
 * Files that reach the shared Redis only to stand a stack up: they test the HTTP surface (request
 * parsing and limits, headers, schemas, the typed client), and every Redis operation their requests
 * cause (snapshot reads, the login throttle's and the miss budget's scripts) runs on the cluster in
 * the files kept (market-routes, tables, login, hardening, throttle-bounds, upstream-budget,
 * miss-ceiling). About a sixth of the leg's time, for no Redis behaviour of their own.
 */
const HTTP_SURFACE = new Set(
  [
    'test/api/openapi-properties.test.ts', // every operation against its schema, valid and invalid input
    'test/api/http/client-address.test.ts', // IPv6 /64 grouping of the throttle's and budget's client
    'test/api/http/hostile-input.test.ts', // malformed requests: 4xx {error}, never a 5xx
    'test/api/http/fuzz.test.ts', // the same, generated
    'test/api/http/nosniff.test.ts', // a response header
    'test/api/http/paced-body.test.ts', // request bodies that trickle in
    'test/api/docs.test.ts', // the /docs page and the document it loads
    'test/api/dashboard/dashboard-route.test.ts', // the dashboard's page and assets
    'test/api/market-client.test.ts', // the generated client's types over the routes market-routes reads
  ].map((file) => resolve(ROOT, file)),
);

export default {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  timeout: 20000,
  spec: filesUnder(resolve(ROOT, 'test'))
    .filter((file) => file.endsWith('.test.ts') && !file.endsWith('-browser.test.ts') && !HTTP_SURFACE.has(file) && reachesShared(file))
    .map((file) => relative(ROOT, file))
    .sort(),
};
