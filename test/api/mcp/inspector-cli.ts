/**
 * CI step (`npx tsx test/api/mcp/inspector-cli.ts`, run by .ci/run): the official MCP
 * inspector's command-line mode, a client built on another line of the SDK, lists the tools of
 * the whole stack's /mcp and calls each one. A tool error must end with the inspector's exit
 * code 5, a result with 0. The inspector comes through npx (from npm's cache once fetched) at a
 * pinned version; it needs no network beyond that.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { http } from '../../support/http.js';
import { eventually, startStack } from '../../support/stack.js';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';

const run = promisify(execFile);
const stack = await startStack();
let failures = 0;
try {
  await eventually(async () => ((await http(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined), 30_000, 'ready');
  // Asynchronously: the API under test runs in this process and must keep answering.
  const inspector = (args: string[]) =>
    run('npx', ['--yes', INSPECTOR, '--cli', `${stack.apiUrl}/mcp`, '--transport', 'http', ...args], {
      encoding: 'utf8',
      timeout: 120_000,
    }).then(
      ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        status: error.code ?? -1,
        stdout: error.stdout ?? '',
        stderr: error.stderr ?? '',
      }),
    );
  const check = async (what: string, args: string[], expectedStatus: number, expectedText: RegExp) => {
    const answer = await inspector(args);
    const ok = answer.status === expectedStatus && expectedText.test(answer.stdout);
    if (!ok) failures += 1;
    console.log(`inspector: ${ok ? 'ok  ' : 'FAIL'} ${what} (exit ${answer.status})${ok ? '' : `\n${answer.stdout}${answer.stderr}`}`);
  };
  const username = stack.sim.trackedUsernames()[0]!;
  await check(
    'tools/list',
    ['--method', 'tools/list'],
    0,
    /"name": "trending_tokens"[\s\S]*"name": "token_history"[\s\S]*"name": "alert_firings"/,
  );
  const calls: [string, string[]][] = [
    ['trending_tokens', []],
    ['trending_contracts', []],
    ['news', ['page=2', 'limit=5']],
    ['username_stats', [`username=${username}`]],
    ['token_sentiment', ['token=SOL']],
    ['sentiment_history', ['token=SOL', 'interval=1h']],
    ['token_history', ['token=SOL']],
  ];
  // Each inspector run spends most of its time starting up: run the calls side by side.
  await Promise.all([
    ...calls.map(([tool, toolArgs]) => {
      const args = ['--method', 'tools/call', '--tool-name', tool, ...toolArgs.flatMap((arg) => ['--tool-arg', arg])];
      return check(`tools/call ${tool} ${toolArgs.join(' ')}`, args, 0, /"structuredContent"[\s\S]*"cachedAt"/);
    }),
    check(
      'tools/call username_stats of an unknown name: a tool error',
      ['--method', 'tools/call', '--tool-name', 'username_stats', '--tool-arg', 'username=nobody_known_1'],
      5,
      /Username not found in index/,
    ),
    // The alert tools act for a key's user: without one, the route's 401 as a tool error.
    check(
      'tools/call list_alerts without a key: a tool error',
      ['--method', 'tools/call', '--tool-name', 'list_alerts'],
      5,
      /Missing token/,
    ),
  ]);
} finally {
  await stack.close();
}
if (failures > 0) {
  console.error(`inspector: ${failures} check(s) failed`);
  process.exit(1);
}
process.exit(0);
