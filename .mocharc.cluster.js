// The Cluster leg (`npm run test:cluster`): the test files that use the run's shared Redis
// (they call startStack() or sharedRedis(), directly or through a test/ helper) run again with
// that Redis a three-master Redis Cluster. The other files would run exactly as in `npm test`
// (no Redis, or one of their own), so this leg leaves them out; so are the browser tests, whose
// pages show what the API answers whatever Redis is behind it.
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

export default {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  timeout: 20000,
  spec: filesUnder(resolve(ROOT, 'test'))
    .filter((file) => file.endsWith('.test.ts') && !file.endsWith('-browser.test.ts') && reachesShared(file))
    .map((file) => relative(ROOT, file))
    .sort(),
};
