/**
 * Issue 21: a tool call's latency next to the REST read of the same data, same run. On the API
 * process the read phases use, interleaved (every second repetition in reverse order):
 * GET /api/market/sentiment/:token against `tools/call token_sentiment`, and news page 1 at
 * limit 50 against `tools/call news`. Closed loop at a fixed modest concurrency, so p50/p99 and
 * the API's CPU per request compare like for like; no target, the table is for reading.
 */
import { expectStatus, rawRequest } from '../lib/http.js';
import { formatInterval, medianInterval, pairedRatios } from '../lib/interval.js';
import { assertClean, watchServer, type LoadGenerator } from '../lib/load.js';
import { roundLength, type Settings } from '../lib/settings.js';
import type { AppProcess, Stack } from '../lib/stack.js';
import { busiestToken, cpuUs, type RoundSample } from './reads.js';

/** Concurrent connections of every round here: a few agents' worth, far below saturation's queueing. */
const MCP_CONNECTIONS = 4;

/** Streamable HTTP: a client must accept both; the stateless server answers one JSON body. */
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

export interface McpPair {
  id: string;
  label: string;
  restUrl: string;
  tool: string;
  args: Record<string, unknown>;
  restBytes: number;
  mcpBytes: number;
  rest: RoundSample[];
  mcp: RoundSample[];
}

export interface McpOutcome {
  connections: number;
  pairs: McpPair[];
}

const callBody = (tool: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } });

/** One call must be a tool result (not a tool error) whose text is the REST body's bytes: the same data, or the comparison means nothing. */
async function checkSameData(apiUrl: string, pair: McpPair): Promise<void> {
  const rest = await expectStatus(`${apiUrl}${pair.restUrl}`, 200);
  const response = await rawRequest(`${apiUrl}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: callBody(pair.tool, pair.args) });
  const text = response.body.toString('utf8');
  if (response.status !== 200) throw new Error(`POST /mcp ${pair.tool}: expected 200, got ${response.status} ${text.slice(0, 200)}`);
  const reply = JSON.parse(text) as { result?: { isError?: boolean; content?: { type: string; text?: string }[] } };
  const content = reply.result?.content?.[0];
  if (reply.result?.isError === true || content?.type !== 'text' || content.text !== rest.body.toString('utf8')) {
    throw new Error(`POST /mcp ${pair.tool}: not the bytes of GET ${pair.restUrl}: ${text.slice(0, 200)}`);
  }
  pair.restBytes = rest.body.length;
  pair.mcpBytes = response.body.length;
}

export async function measureMcp(
  stack: Stack,
  api: AppProcess,
  load: LoadGenerator,
  settings: Settings,
  log: (line: string) => void,
): Promise<McpOutcome> {
  const token = await busiestToken(stack.redis.url);
  const pair = (id: string, label: string, restUrl: string, tool: string, args: Record<string, unknown>): McpPair => ({
    id,
    label,
    restUrl,
    tool,
    args,
    restBytes: 0,
    mcpBytes: 0,
    rest: [],
    mcp: [],
  });
  const pairs = [
    pair('sentiment', `sentiment (${token})`, `/api/market/sentiment/${token}`, 'token_sentiment', { token }),
    pair('news-p1', 'news page 1 (limit 50)', '/api/market/news?page=1&limit=50', 'news', { page: 1, limit: 50 }),
  ];
  for (const p of pairs) await checkSameData(api.url, p);

  const round = async (p: McpPair, kind: 'rest' | 'mcp', length: { durationSec: number; amount?: number }): Promise<RoundSample> => {
    const spec =
      kind === 'rest'
        ? { url: `${api.url}${p.restUrl}` }
        : { url: `${api.url}/mcp`, method: 'POST' as const, headers: MCP_HEADERS, body: callBody(p.tool, p.args) };
    const { value, server } = await watchServer(
      api.proc.pid,
      Promise.race([api.proc.died, load.run({ ...spec, connections: MCP_CONNECTIONS, ...length })]),
      [load],
    );
    assertClean(`mcp phase ${kind} ${p.id}`, value, 200);
    return { load: value, server };
  };
  const plan = pairs.flatMap((p) => (['rest', 'mcp'] as const).map((kind) => ({ p, kind })));
  if (settings.warmupSec > 0) for (const { p, kind } of plan) await round(p, kind, { durationSec: settings.warmupSec });
  for (let rep = 0; rep < settings.reps; rep += 1) {
    for (const { p, kind } of rep % 2 === 0 ? plan : [...plan].reverse()) {
      const sample = await round(p, kind, roundLength(settings));
      p[kind].push(sample);
      log(
        `mcp rep ${rep + 1}/${settings.reps} ${kind.padEnd(4)} ${p.id.padEnd(9)} p50 ${sample.load.p50.toFixed(2)} ms  p99 ${sample.load.p99.toFixed(2)} ms` +
          `  ${cpuUs(sample).toFixed(1)} µs CPU/req  ${sample.load.rps.toFixed(0)} req/s`,
      );
    }
  }
  return { connections: MCP_CONNECTIONS, pairs };
}

/** The report's section: medians over the repetitions, and MCP ÷ REST paired per repetition. */
export function mcpTable(outcome: McpOutcome): string[] {
  const lines = [
    '## MCP tool calls vs the REST reads (same API process, same run)',
    '',
    `POST /mcp \`tools/call\` (stateless, answered by mcp-dispatch.ts: one JSON answer, no server or transport per request) against the REST read of the same data, ` +
      `interleaved on the API process of the read rounds, ${outcome.connections} connections (closed loop). p50, p99 and CPU (the API process's, µs per response) are medians over the repetitions; ` +
      'the ÷ columns are MCP over REST, paired per repetition, median [interval]. No target: for reading.',
    '',
    '| read | REST / MCP body | REST p50 / p99 ms | MCP p50 / p99 ms | p50 MCP ÷ REST | p99 MCP ÷ REST | REST CPU µs/req | MCP CPU µs/req | CPU MCP ÷ REST |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const med = (samples: RoundSample[], pick: (s: RoundSample) => number, digits: number) =>
    medianInterval(samples.map(pick)).median.toFixed(digits);
  const ratio = (p: McpPair, pick: (s: RoundSample) => number) =>
    `${formatInterval(medianInterval(pairedRatios(p.mcp.map(pick), p.rest.map(pick))))}x`;
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  for (const p of outcome.pairs) {
    lines.push(
      `| ${p.label} vs \`${p.tool}\` | ${kb(p.restBytes)} / ${kb(p.mcpBytes)} | ${med(p.rest, (s) => s.load.p50, 2)} / ${med(p.rest, (s) => s.load.p99, 2)} | ` +
        `${med(p.mcp, (s) => s.load.p50, 2)} / ${med(p.mcp, (s) => s.load.p99, 2)} | ${ratio(p, (s) => s.load.p50)} | ${ratio(p, (s) => s.load.p99)} | ` +
        `${med(p.rest, cpuUs, 1)} | ${med(p.mcp, cpuUs, 1)} | ${ratio(p, cpuUs)} |`,
    );
  }
  lines.push('');
  return lines;
}
