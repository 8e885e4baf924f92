/**
 * `npm run bench:dashboard`: only the dashboard phase of `npm run bench` (bench/phases/dashboard.ts),
 * on the same stack (private Redis, the simulator with 10,000 posts, the real API process), in
 * about a minute instead of the whole run's 18. Prints the report's table; `--quick` makes 2 visits instead of 9.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dashboardTable, measureDashboard } from './phases/dashboard.js';
import { buildInto } from './lib/processes.js';
import { settingsFor } from './lib/settings.js';
import { startApi, startStack, type AppProcess, type Stack } from './lib/stack.js';

const settings = settingsFor(process.argv.includes('--quick'));
const workDir = mkdtempSync(join(tmpdir(), 'market-signals-bench-dashboard-'));
const log = (line: string) => process.stdout.write(`[bench:dashboard] ${line}\n`);

let stack: Stack | undefined;
let api: AppProcess | undefined;
try {
  buildInto(join(workDir, 'build'));
  stack = await startStack();
  api = await startApi(stack, { name: 'api', workDir, webConcurrency: 1 });
  log(`API ready at ${api.url}`);
  const outcome = await measureDashboard(api, settings, log);
  process.stdout.write(`\n${dashboardTable(outcome).join('\n')}\n`);
} catch (error) {
  process.exitCode = 1;
  log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await api?.proc.stop(10_000);
  await stack?.close();
  rmSync(workDir, { recursive: true, force: true });
}
process.exit(process.exitCode ?? 0);
