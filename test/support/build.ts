/**
 * The compiled build (`npm run build`) that the tests of deployed processes run: the Procfile's
 * lines and the built users and MCP commands. `npm test` and `test:cluster` build once before their
 * processes start (dev/test-shards.ts), `test:faults` in mocha's global setup (`--require
 * test/support/build.ts`), so no process rewrites dist/ while another runs from it; a file run
 * alone builds on first use. MS_TEST_BUILT=1 says the build is done (.ci/run builds once, then
 * runs the fault suite beside the test legs). The build is incremental (tsconfig.build.json): with
 * nothing changed it takes seconds.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Set once built: the workers mocha forks after the global setup inherit it. */
const BUILT = 'MS_TEST_BUILT';

function build(): void {
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}${result.stderr}`);
  process.env[BUILT] = '1';
}

export function mochaGlobalSetup(): void {
  ensureBuilt();
}

/** Builds unless this run (or this process) already has. */
export function ensureBuilt(): void {
  if (process.env[BUILT] !== '1') build();
}
