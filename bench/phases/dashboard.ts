/**
 * Issue 31: the dashboard at GET / in headless Chromium (Debian's `chromium`, through
 * playwright-core), against the benchmark's API process. Each visit is a first visit (a fresh
 * browser context: empty cache), then a reload of it (a return visit: assets from the cache).
 * Measured per visit:
 * - bytes over the wire: every response's headers and its body as sent (br/gzip as the browser
 *   negotiated), the page and its assets apart from the data reads; the event stream stays
 *   open and is not counted;
 * - time to show the board: from navigation start to the page's `board-shown` mark (the
 *   trending rows rendered), and to the last sentiment label read.
 * No target: the table is for reading. Skipped, with a line saying so, when Chromium is absent.
 */
import { existsSync } from 'node:fs';
import type { Page, Request } from 'playwright-core';
import { CHROMIUM, launchHeadlessChromium } from '../../dev/chromium.js';
import { median } from '../../dev/numbers.js';
import type { Settings } from '../lib/settings.js';
import type { AppProcess } from '../lib/stack.js';

export interface DashboardVisit {
  /** Page, scripts and styles: headers and bodies as sent. */
  assetBytes: number;
  /** The data reads the page made to show every panel (trending, trending-cas, news, each token's sentiment). */
  dataBytes: number;
  requests: number;
  /** Navigation start to the board's rows on screen. */
  boardMs: number;
  /** Navigation start to every sentiment label read and the news feed shown. */
  completeMs: number;
}

export interface DashboardOutcome {
  /** Why nothing was measured, when nothing was. */
  skipped?: string;
  first: DashboardVisit[];
  repeat: DashboardVisit[];
  /** The page and every file a first visit loads, before compression, for scale. */
  assetIdentityBytes: number;
}

/** Counts the bytes of every finished response of `page` from now on. */
function meter(page: Page) {
  const finished: Promise<{ path: string; asset: boolean; bytes: number }>[] = [];
  const onFinished = (request: Request) => {
    const path = new URL(request.url()).pathname;
    finished.push(
      request
        .sizes()
        .then((sizes) => ({ path, asset: !path.startsWith('/api/'), bytes: sizes.responseHeadersSize + sizes.responseBodySize })),
    );
  };
  page.on('requestfinished', onFinished);
  return async () => {
    page.off('requestfinished', onFinished);
    // A response from the browser's cache moved no byte: it is not a request over the wire.
    const all = (await Promise.all(finished)).filter((entry) => entry.bytes > 0);
    const sum = (asset: boolean) => all.filter((entry) => entry.asset === asset).reduce((total, entry) => total + entry.bytes, 0);
    return {
      assetBytes: sum(true),
      dataBytes: sum(false),
      requests: all.length,
      assetPaths: all.filter((entry) => entry.asset).map((entry) => entry.path),
    };
  };
}

/** Loads (or reloads) the page and waits until every panel is filled: the board, each sentiment label it asks for, the news. */
async function visit(page: Page, load: () => Promise<unknown>): Promise<{ measured: DashboardVisit; assetPaths: string[] }> {
  const stop = meter(page);
  await load();
  await page.locator('#board-rows tr').first().waitFor({ timeout: 30_000 });
  await page.locator('#news-list > li').first().waitFor({ timeout: 30_000 });
  // Every row's label is read (a token without a record keeps its dash once its read answered 404).
  // Polled from here: waitForFunction evaluates its predicate inside the page, which the page's CSP (no eval) refuses.
  const labelsRead = `performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/market/sentiment/')).length >= document.querySelectorAll('#board-rows tr').length`;
  for (const deadline = Date.now() + 30_000; !(await page.evaluate<boolean>(labelsRead));) {
    if (Date.now() > deadline) throw new Error('the dashboard did not read every sentiment label within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const timing = await page.evaluate<{ boardMs: number; completeMs: number }>(`(() => {
    const board = performance.getEntriesByName('board-shown')[0];
    const ends = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/market/')).map((e) => e.responseEnd);
    return { boardMs: board ? board.startTime : NaN, completeMs: Math.max(board ? board.startTime : 0, ...ends) };
  })()`);
  const { assetPaths, ...bytes } = await stop();
  return { measured: { ...bytes, ...timing }, assetPaths };
}

export async function measureDashboard(api: AppProcess, settings: Settings, log: (line: string) => void): Promise<DashboardOutcome> {
  const outcome: DashboardOutcome = { first: [], repeat: [], assetIdentityBytes: 0 };
  if (!existsSync(CHROMIUM)) return { ...outcome, skipped: `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)` };
  const browser = await launchHeadlessChromium();
  try {
    const visits = settings.quick ? 2 : 9;
    for (let i = 0; i < visits; i += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
      const page = await context.newPage();
      const { measured: first, assetPaths } = await visit(page, () => page.goto(`${api.url}/`));
      const { measured: repeat } = await visit(page, () => page.reload());
      await context.close();
      outcome.first.push(first);
      outcome.repeat.push(repeat);
      if (i === 0) outcome.assetIdentityBytes = await identityBytes(api.url, assetPaths);
      log(
        `dashboard visit ${i + 1}/${visits}: first ${kb(first.assetBytes + first.dataBytes)} (${first.requests} requests), board at ${first.boardMs.toFixed(0)} ms, ` +
          `complete ${first.completeMs.toFixed(0)} ms; return visit ${kb(repeat.assetBytes + repeat.dataBytes)}, board at ${repeat.boardMs.toFixed(0)} ms`,
      );
    }
  } finally {
    await browser.close();
  }
  return outcome;
}

/** The files a first visit loaded, as they are before compression. */
async function identityBytes(origin: string, paths: string[]): Promise<number> {
  let total = 0;
  for (const path of paths)
    total += (await (await fetch(`${origin}${path}`, { headers: { 'Accept-Encoding': 'identity' } })).arrayBuffer()).byteLength;
  return total;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The report's section: medians over the visits. */
export function dashboardTable(outcome: DashboardOutcome | undefined): string[] {
  const lines = ['## The dashboard (GET /) in headless Chromium', ''];
  if (!outcome || outcome.skipped) return [...lines, `Not measured: ${outcome?.skipped ?? 'not run'}.`, ''];
  const med = (visits: DashboardVisit[], pick: (v: DashboardVisit) => number) => median(visits.map(pick));
  lines.push(
    `Chromium on the benchmark's API process (10,000 posts, 50 trending tokens), loopback: no network latency, so the times are the server's and the browser's work. ` +
      `A first visit is a fresh browser context (empty cache); a return visit reloads it (the versioned assets come from the cache without a request). ` +
      `Bytes are over the wire: headers plus bodies as sent (br), medians over ${outcome.first.length} visits; the event stream stays open and is not counted. ` +
      `The page and its files are ${kb(outcome.assetIdentityBytes)} before compression. No target: for reading.`,
    '',
    '| visit | page + assets | data reads | requests over the wire | board shown | every panel filled |',
    '|---|---:|---:|---:|---:|---:|',
  );
  for (const [label, visits] of [
    ['first visit', outcome.first],
    ['return visit', outcome.repeat],
  ] as const) {
    lines.push(
      `| ${label} | ${kb(med(visits, (v) => v.assetBytes))} | ${kb(med(visits, (v) => v.dataBytes))} | ${med(visits, (v) => v.requests).toFixed(0)} | ` +
        `${med(visits, (v) => v.boardMs).toFixed(0)} ms | ${med(visits, (v) => v.completeMs).toFixed(0)} ms |`,
    );
  }
  lines.push('');
  return lines;
}
