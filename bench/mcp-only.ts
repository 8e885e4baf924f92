/**
 * `npx tsx bench/mcp-only.ts [--baseline=<git revision>]`: the MCP phase of `npm run bench`
 * alone (bench/phases/mcp.ts, full-run settings), a few minutes instead of the whole run's
 * eighteen. With `--baseline`, that revision's API is measured by the same phase right after,
 * on the same stack: each API's MCP ÷ REST is paired within its own rounds, so the two tables
 * compare a change's effect on a tool call against the REST read of the same data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoadGenerator } from './lib/load.js';
import { buildInto, buildRevision } from './lib/processes.js';
import { settingsFor } from './lib/settings.js';
import { startApi, startStack, type AppProcess, type Stack } from './lib/stack.js';
import { mcpTable, measureMcp } from './phases/mcp.js';

const baselineRevision = process.argv.find((arg) => arg.startsWith('--baseline='))?.slice('--baseline='.length);
const settings = settingsFor(false);
const workDir = mkdtempSync(join(tmpdir(), 'market-signals-bench-mcp-'));
const log = (line: string) => process.stdout.write(`[bench mcp] ${line}\n`);

let stack: Stack | undefined;
let load: LoadGenerator | undefined;
const apis: AppProcess[] = [];
try {
  buildInto(join(workDir, 'build'));
  stack = await startStack();
  load = await LoadGenerator.start('load');
  const targets: [string, string | undefined][] = [['this checkout', undefined]];
  if (baselineRevision) targets.push([baselineRevision, buildRevision(baselineRevision, join(workDir, 'baseline'))]);
  for (const [label, buildDir] of targets) {
    const api = await startApi(stack, { name: `api-${apis.length}`, workDir, webConcurrency: 1, ...(buildDir ? { buildDir } : {}) });
    apis.push(api);
    log(`${label}: API pid ${api.proc.pid} at ${api.url}`);
    const outcome = await measureMcp(stack, api, load, settings, log);
    process.stdout.write(`\n### ${label}\n\n${mcpTable(outcome).join('\n')}\n`);
    await api.proc.stop(10_000);
  }
} catch (error) {
  process.exitCode = 1;
  log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await load?.close();
  for (const api of apis) await api.proc.stop(10_000);
  await stack?.close();
  rmSync(workDir, { recursive: true, force: true });
}
process.exit(process.exitCode ?? 0);
