/** Renders a run's results: the markdown tables and a hand-written SVG bar chart of the ratios. */
import { renderXCost } from './phases/x-cost.js';
import { formatInterval, medianInterval, pairedRatios, type Verdict } from './lib/interval.js';
import { find, type BenchResults } from './lib/results.js';
import { mean, median } from '../dev/numbers.js';
import { dashboardTable } from './phases/dashboard.js';
import { mcpTable } from './phases/mcp.js';
import { cpuUs, cpuWithRedisUs, type ServerKind } from './phases/reads.js';

const SERVER_LABEL = { raw: '(a) node:http', koa: '(b) Koa + router', naive: '(c) naive', api: '(d) API' } as const;
const MB = 1024 * 1024;

/** What the read-matrix sections need: a full run's results, or a `--reads-only` run's. */
export type ReadMatrixResults = Pick<BenchResults, 'reads' | 'verdicts' | 'baselineRevision'> & {
  settings: Pick<BenchResults['settings'], 'quick'>;
};

/** Median over repetitions of (numerator's CPU/req ÷ denominator's), measured back to back. */
function cpuRatio(results: Pick<BenchResults, 'reads'>, row: string, numerator: ServerKind, denominator: ServerKind, cost = cpuUs): string {
  const of = (server: ServerKind) => results.reads.measurements.find((m) => m.row === row && m.server === server)?.samples ?? [];
  const a = of(numerator);
  const b = of(denominator);
  if (a.length === 0 || b.length === 0) return '';
  return `${formatInterval(medianInterval(pairedRatios(a.map(cost), b.map(cost))))}x`;
}

const HOW_DECIDED =
  'Every verdict is decided on repeated measurements, never on one figure: each target reduces its interleaved repetitions to a list of values ' +
  '(usually one ratio per repetition, the two sides measured back to back), and takes their median with a distribution-free interval from order statistics ' +
  '(>= 90 % confidence; with 8 repetitions it runs from the 2nd smallest to the 2nd largest value, 93 %; with 5, min to max). **PASS**: the whole interval meets the target. **FAIL**: the whole interval misses it. ' +
  '**INCONCLUSIVE**: the interval straddles the threshold (or too few repetitions for 90 %), i.e. this run cannot tell. ' +
  'Throughput targets ("req/s >= k x B") are judged on the server process\'s CPU time per response (utime + stime from /proc, all threads, divided by responses of the expected status), ' +
  'as "CPU/req <= 1/k x B\'s": the servers, the load generator and everything else share two cores, so req/s mostly says how much of a core the scheduler gave the server in that round. ' +
  'Intervals are shown as median [low, high].';

/** The read matrix against raw node:http, and the keyed reads against the anonymous ones. */
export function readMatrixSections(results: ReadMatrixResults): string[] {
  const { reads } = results;
  const lines: string[] = [];
  const verdictOf = (prefix: string) => {
    const verdict = results.verdicts.find((v: Verdict) => v.target.startsWith(prefix))?.verdict ?? '';
    return results.settings.quick && verdict !== '' ? `${verdict.toLowerCase()} (not asserted)` : verdict;
  };
  lines.push('## Cached reads against raw node:http (CPU per request, same run)', '');
  lines.push(
    'Target: the API spends at most 1.5x the CPU per request that (a), node:http answering from a Map with the same bytes, spends.',
    '',
  );
  const before = results.baselineRevision;
  if (before)
    lines.push(
      `(e) is the API of \`${before}\` (\`--baseline\`), measured in the same interleaved rounds: the same reads before and after.`,
      '',
    );
  lines.push(
    `| read | (a) node:http µs/req | (d) API µs/req | API ÷ (a) | ${before ? '(e) baseline µs/req | (e) ÷ (a) | ' : ''}verdict |`,
    `|---|---:|---:|---:|${before ? '---:|---:|' : ''}---|`,
  );
  for (const row of reads.rows) {
    const raw = find(reads.summary, row.id, 'raw');
    const api = find(reads.summary, row.id, 'api');
    if (!raw || !api) continue;
    const baseline = find(reads.summary, row.id, 'baseline');
    const beforeCells = before
      ? `${baseline ? formatInterval(baseline.cpuUs, 1) : ''} | ${baseline ? cpuRatio(results, row.id, 'baseline', 'raw') : ''} | `
      : '';
    lines.push(
      `| ${row.label} | ${formatInterval(raw.cpuUs, 1)} | ${formatInterval(api.cpuUs, 1)} | ${cpuRatio(results, row.id, 'api', 'raw')} | ${beforeCells}${verdictOf(`${row.label}: API CPU per request <= 1.5x`)} |`,
    );
  }
  const keyed = reads.rows.filter((row) => row.anonymousOf);
  if (keyed.length > 0) {
    lines.push('', '## Keyed reads (issue 29)', '');
    lines.push(
      'Target: a read with an API key costs the API at most 1.3x the same read without one (and at most 1.5x (a), above). CPU per request, paired per repetition.',
      '',
    );
    lines.push(
      `| read | API µs/req | ÷ without key | ÷ (a) | ${before ? '(e) µs/req | (e) ÷ its read without key | (e) ÷ (a) | ' : ''}verdict |`,
      `|---|---:|---:|---:|${before ? '---:|---:|---:|' : ''}---|`,
    );
    for (const row of keyed) {
      const api = find(reads.summary, row.id, 'api');
      const baseline = find(reads.summary, row.id, 'baseline');
      if (!api || !row.anonymousOf) continue;
      const beforeCells =
        before && baseline
          ? `${formatInterval(baseline.cpuUs, 1)} | ${cpuRatioAcross(results, row.id, row.anonymousOf, 'baseline')} | ${cpuRatio(results, row.id, 'baseline', 'raw')} | `
          : before
            ? ' | | | '
            : '';
      lines.push(
        `| ${row.label} | ${formatInterval(api.cpuUs, 1)} | ${cpuRatioAcross(results, row.id, row.anonymousOf, 'api')} | ${cpuRatio(results, row.id, 'api', 'raw')} | ${beforeCells}${verdictOf(`${row.label}: API CPU per request <= 1.3x`)} |`,
      );
    }
  }
  lines.push('');
  return lines;
}

/** Median over repetitions of one server's CPU/req on `row` ÷ the same server's on `other`. */
function cpuRatioAcross(results: Pick<BenchResults, 'reads'>, row: string, other: string, server: ServerKind): string {
  const of = (id: string) => results.reads.measurements.find((m) => m.row === id && m.server === server)?.samples ?? [];
  const a = of(row);
  const b = of(other);
  if (a.length === 0 || b.length === 0) return '';
  return `${formatInterval(medianInterval(pairedRatios(a.map(cpuUs), b.map(cpuUs))))}x`;
}

export function renderMarkdown(results: BenchResults): string {
  const { settings, reads } = results;
  const lines: string[] = [];
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' / ');
  lines.push(`# Benchmark: cached market reads (docs/decisions.md#d13)`, '');
  lines.push(
    `Run ${results.startedAt}, ${results.mode} mode, ${results.totalSeconds.toFixed(0)} s. ${results.machine.cpus} cores ` +
      (reads.pinned
        ? '(in the read matrix each server pinned to one core and the load generator to the other, with taskset) '
        : 'shared by the servers and the load generator ') +
      `(load average 1/5/15 min at start ${load(results.machine.loadAverageAtStart)}, at the end ${load(results.machine.loadAverageAtEnd)}: anything above ~2 is other work competing); ` +
      `Node ${results.machine.node}. Load: ${results.machine.loadGenerator}, one process, ${settings.connections} connections, ` +
      (settings.amount ? `${settings.amount} requests per round` : `${settings.durationSec} s rounds`) +
      `, ${settings.reps} interleaved repetition(s); latencies from autocannon's per-response hrtime. ` +
      `The API is apps/api/src/main.ts with NODE_ENV=production and LOG_LEVEL unset, so at the production default (${results.apiLogLevel}); its stdout a pipe drained by the orchestrator (${(results.apiLogBytes / MB).toFixed(0)} MB written). ` +
      `Requests carry no Accept-Encoding, so every server sends the same identity bytes; ratios compare servers within this run only.`,
    '',
  );
  if (settings.quick) lines.push('**Quick mode: too short to mean anything about speed; targets are shown, not asserted.**', '');
  lines.push(HOW_DECIDED, '');

  lines.push(...readMatrixSections(results));
  lines.push('', '## Reads', '');
  lines.push(
    "req/s, p50 and p99 are medians over the repetitions of saturating rounds (closed loop); CPU is the server process's, µs per response, median [interval]; " +
      "the ÷ columns are CPU per request over (a)'s and (b)'s, and (c)'s cost over the API's (each with Redis's CPU in the round), paired per repetition.",
    '',
  );
  lines.push('| read | body | server | req/s (min-max) | p50 ms | p99 ms | server CPU µs/req | CPU ÷ (a) | CPU ÷ (b) | (c) ÷ API |');
  lines.push('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of reads.rows) {
    let first = true;
    for (const server of ['raw', 'koa', 'naive', 'api'] as const) {
      const s = find(reads.summary, row.id, server);
      if (!s) continue;
      const bytes = row.expect === 304 ? '304, no body' : `${((reads.bodyBytes[row.id] ?? 0) / 1024).toFixed(1)} KB`;
      lines.push(
        `| ${first ? row.label : ''} | ${first ? bytes : ''} | ${SERVER_LABEL[server]} | ${s.rps.toFixed(0)} (${s.rpsMin.toFixed(0)}-${s.rpsMax.toFixed(0)}) | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ` +
          `${formatInterval(s.cpuUs, 1)} | ${server === 'raw' ? '' : cpuRatio(results, row.id, server, 'raw')} | ${server === 'api' || server === 'naive' ? cpuRatio(results, row.id, server, 'koa') : ''} | ` +
          `${server === 'api' && find(reads.summary, row.id, 'naive') ? cpuRatio(results, row.id, 'naive', 'api', cpuWithRedisUs) : ''} |`,
      );
      first = false;
    }
  }
  lines.push('', ...mcpTable(results.mcp));
  lines.push(...dashboardTable(results.dashboard));
  lines.push('## Targets', '');
  const count = (verdict: string) => results.verdicts.filter((v) => v.verdict === verdict).length;
  lines.push(
    `${count('PASS')} PASS, ${count('FAIL')} FAIL, ${count('INCONCLUSIVE')} INCONCLUSIVE${settings.quick ? ' (quick mode: not asserted)' : ''}.`,
    '',
  );
  lines.push('| target | measured | verdict |', '|---|---|---|');
  for (const v of results.verdicts) {
    const verdict =
      settings.quick && v.verdict !== 'info' ? `${v.verdict.toLowerCase()} (not asserted)` : v.verdict === 'FAIL' ? '**FAIL**' : v.verdict;
    lines.push(`| ${v.target} | ${v.measured} | ${verdict} |`);
  }

  const { stats, login, cluster, worker } = results;
  lines.push('', '## Details', '');
  const slowest = stats.bursts.map((b) => b.burst.completionMs.at(-1) ?? 0);
  const fastest = stats.bursts.map((b) => b.burst.completionMs[0] ?? 0);
  lines.push(
    `- Stats bursts: ${stats.bursts.length} of ${stats.requests} requests each, every one for another uncached username, on pre-opened connections, upstream latency ${stats.upstreamLatencyMs} ms: ` +
      `upstream calls ${stats.bursts.map((b) => b.upstreamCalls).join(', ')}; fastest answers ${fastest.map((v) => v.toFixed(0)).join(', ')} ms; slowest ${slowest.map((v) => v.toFixed(0)).join(', ')} ms.`,
  );
  const alone1 = login.alone1;
  lines.push(
    `- Login: 1 client p50 ${median(alone1.map((r) => r.p50)).toFixed(1)} ms / p99 ${median(alone1.map((r) => r.p99)).toFixed(1)} ms (${median(alone1.map((r) => r.rps)).toFixed(1)} logins/s; medians of ${alone1.length} rounds); ` +
      `4 clients p50 ${login.alone4.p50.toFixed(1)} ms (${login.alone4.rps.toFixed(1)} logins/s); during market reads p50 ${mean(login.loginsUnderReads.map((r) => r.p50)).toFixed(1)} ms.`,
  );
  lines.push(
    `- Market trending reads without / with 4 clients logging in: ${mean(login.readsWithout.map((r) => r.rps)).toFixed(0)} / ${mean(login.readsWith.map((r) => r.rps)).toFixed(0)} req/s, ` +
      `p50 ${mean(login.readsWithout.map((r) => r.p50)).toFixed(2)} / ${mean(login.readsWith.map((r) => r.p50)).toFixed(2)} ms, ` +
      `p99 ${mean(login.readsWithout.map((r) => r.p99)).toFixed(2)} / ${mean(login.readsWith.map((r) => r.p99)).toFixed(2)} ms.`,
  );
  const share = (list: { cpuMs: number; loadCpuMs: number; otherCpuMs: number; wallMs: number }[]) => {
    const wall = list.reduce((sum, c) => sum + c.wallMs, 0) || 1;
    const sum = (pick: (c: (typeof list)[number]) => number) => (list.reduce((total, c) => total + pick(c), 0) / wall).toFixed(2);
    return `API ${sum((c) => c.cpuMs)}, load generators ${sum((c) => c.loadCpuMs)}, rest of the machine ${sum((c) => c.otherCpuMs)} cores`;
  };
  lines.push(`- CPU during those reads, without logins: ${share(login.cpuWithout)}; with: ${share(login.cpuWith)}.`);
  lines.push(
    `- Failed logins (${login.unknownEmailMs.length} each, sequential, interleaved): unknown email median ${median(login.unknownEmailMs).toFixed(1)} ms, ` +
      `wrong password median ${median(login.wrongPasswordMs).toFixed(1)} ms.`,
  );
  const split = (samples: { server: { cpuMs: number; loadCpuMs: number; wallMs: number } }[]) => {
    const wall = samples.reduce((sum, s) => sum + s.server.wallMs, 0) || 1;
    const api = samples.reduce((sum, s) => sum + s.server.cpuMs, 0) / wall;
    const gen = samples.reduce((sum, s) => sum + s.server.loadCpuMs, 0) / wall;
    return `API ${api.toFixed(2)} + load generator ${gen.toFixed(2)} cores`;
  };
  lines.push(
    `- WEB_CONCURRENCY=2 (${cluster.samples.clusterProcesses} API processes): trending ${cluster.clustered.rps.toFixed(0)} req/s, p50 ${cluster.clustered.p50.toFixed(2)} ms, ` +
      `p99 ${cluster.clustered.p99.toFixed(2)} ms, ${cluster.clustered.cpuUsPerRequest.toFixed(0)} µs CPU/req (${split(cluster.samples.cluster)}); ` +
      `1 process: ${cluster.single.rps.toFixed(0)} req/s, p50 ${cluster.single.p50.toFixed(2)} ms, p99 ${cluster.single.p99.toFixed(2)} ms, ` +
      `${cluster.single.cpuUsPerRequest.toFixed(0)} µs CPU/req (${split(cluster.samples.single)}). Both share the two cores with the load generator.`,
  );
  lines.push(
    `- Worker news refresh (${worker.summary.items} posts, ${worker.summary.tokens} tokens; fetch 20 pages, validate, sort, sentiment, two snapshots written): ` +
      `CPU median ${worker.summary.cpuMsMedian.toFixed(0)} ms, p90 ${worker.summary.cpuMsP90.toFixed(0)} ms, wall ${worker.summary.wallMsMedian.toFixed(0)} ms. ` +
      `RSS median over refreshes 101-150 ${(worker.summary.rssEarlyBytes / MB).toFixed(0)} MB, over the last 50 ${(worker.summary.rssLateBytes / MB).toFixed(0)} MB, max ${(worker.summary.rssMaxBytes / MB).toFixed(0)} MB; ` +
      `per tenth of the run: ${worker.summary.rssCurveBytes.map((b) => (b / MB).toFixed(0)).join(', ')} MB.`,
  );
  const noisiest = reads.measurements
    .flatMap((m) => m.samples.map((sample) => ({ m, sample })))
    .sort((p, q) => q.sample.server.otherCpuMs / q.sample.server.wallMs - p.sample.server.otherCpuMs / p.sample.server.wallMs)[0];
  if (noisiest) {
    const { m, sample } = noisiest;
    lines.push(
      `- Noise: the read round where the rest of the machine (kernel, Redis, orchestrator, anything foreign) took the most CPU was ` +
        `${m.server} ${m.row} at ${(sample.server.otherCpuMs / sample.server.wallMs).toFixed(2)} cores (server ${(sample.server.cpuMs / sample.server.wallMs).toFixed(2)}, ` +
        `load generator ${(sample.server.loadCpuMs / sample.server.wallMs).toFixed(2)}); every round's split is in the JSON.`,
    );
  }
  lines.push(
    `- API RSS: largest sample ${(results.apiMaxRssBytes / MB).toFixed(0)} MB during the read rounds (VmRSS every 200 ms); ` +
      `${(results.apiRssAfterLoginsBytes / MB).toFixed(0)} MB right after the login rounds.`,
  );
  lines.push('');
  if (results.xCost) lines.push(...renderXCost(results.xCost));
  return lines.join('\n');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Horizontal bars: the API's CPU per request over (a)'s and (b)'s per read; (c)'s cost over the API's where measured. */
export function renderSvg(results: BenchResults): string {
  const { rows, measurements } = results.reads;
  const of = (row: string, server: ServerKind) => measurements.find((m) => m.row === row && m.server === server)?.samples ?? [];
  const ratioOf = (row: string, numerator: ServerKind, denominator: ServerKind, cost = cpuUs) =>
    medianInterval(pairedRatios(of(row, numerator).map(cost), of(row, denominator).map(cost))).median;
  const bars: { label: string; value: number; colour: string; panel: 0 | 1 }[] = [];
  for (const row of rows) {
    for (const [server, colour] of [
      ['raw', '#8da0cb'],
      ['koa', '#66c2a5'],
    ] as const) {
      const value = ratioOf(row.id, 'api', server);
      if (Number.isFinite(value)) bars.push({ label: `${row.label} ÷ ${server === 'raw' ? '(a)' : '(b)'}`, value, colour, panel: 0 });
    }
    const naive = ratioOf(row.id, 'naive', 'api', cpuWithRedisUs);
    if (Number.isFinite(naive)) bars.push({ label: `(c) ÷ API, ${row.label}`, value: naive, colour: '#fc8d62', panel: 1 });
  }
  const barHeight = 16;
  const gap = 6;
  const labelWidth = 290;
  const plotWidth = 420;
  const panelTop = [40, 0];
  const panel0 = bars.filter((b) => b.panel === 0);
  const panel1 = bars.filter((b) => b.panel === 1);
  panelTop[1] = (panelTop[0] ?? 40) + panel0.length * (barHeight + gap) + 60;
  const height = (panelTop[1] ?? 0) + panel1.length * (barHeight + gap) + 40;
  const scales = [Math.max(2, ...panel0.map((b) => b.value)) * 1.05, Math.max(4, ...panel1.map((b) => b.value)) * 1.05];
  const marks = [
    [1, 1.18, 1.5],
    [1, 2, 3],
  ];
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + plotWidth + 80}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">API CPU per request over (a) node:http's and (b) Koa + router's (lower is better) — ${escapeXml(results.startedAt)}</text>`,
  );
  for (const panel of [0, 1] as const) {
    const top = panelTop[panel] ?? 0;
    const list = panel === 0 ? panel0 : panel1;
    const scale = scales[panel] ?? 1;
    if (panel === 1)
      parts.push(
        `<text x="10" y="${top - 14}" font-size="14" font-weight="bold">(c) the naive design's CPU per request (with Redis) over the API's (higher is better)</text>`,
      );
    for (const mark of marks[panel] ?? []) {
      const mx = (labelWidth + (mark / scale) * plotWidth).toFixed(1);
      parts.push(
        `<line x1="${mx}" y1="${top - 4}" x2="${mx}" y2="${top + list.length * (barHeight + gap)}" stroke="#999" stroke-dasharray="4 3"/>`,
        `<text x="${mx}" y="${top + list.length * (barHeight + gap) + 12}" text-anchor="middle" fill="#666">${mark}x</text>`,
      );
    }
    list.forEach((bar, i) => {
      const y = top + i * (barHeight + gap);
      const w = Math.max(1, (bar.value / scale) * plotWidth);
      parts.push(
        `<text x="${labelWidth - 8}" y="${y + barHeight - 4}" text-anchor="end">${escapeXml(bar.label)}</text>`,
        `<rect x="${labelWidth}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="${bar.colour}"/>`,
        `<text x="${(labelWidth + w + 4).toFixed(1)}" y="${y + barHeight - 4}">${bar.value.toFixed(2)}x</text>`,
      );
    });
  }
  parts.push('</svg>', '');
  return parts.join('\n');
}
