/**
 * Issue 31: the dashboard at GET / in a real browser: headless Chromium (Debian's `chromium`)
 * driven by playwright-core, against the API, real Redis, the simulator and the worker's own
 * job functions run at pinned times (so there is history to chart and a refresh lands when the
 * test says). Screenshots go to test/artifacts/ (git-ignored): dashboard-board.png (the whole
 * page), dashboard-token.png, dashboard-news.png, dashboard-phone.png and dashboard.png (the
 * window with a token view open, which docs/images/dashboard.png copies).
 */
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { ARTIFACTS, launchChromium } from '../../support/chromium.js';
import type { NewsItem, TrendingToken } from '../../../shared/market-types.js';
import { http } from '../../support/http.js';
import { pinnedJobs, type PinnedJobs } from '../../support/pinned-jobs.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';

const HALF_HOUR = 30 * 60_000;
/** Refreshes written before the page opens: a few hours of history, within the default 24 h range. */
const PAST_REFRESHES = 8;

interface Envelope<T> {
  data: T;
  cachedAt: string;
  pagination?: { total: number };
}

describe('GET / (the dashboard) in headless Chromium', function () {
  this.timeout(120_000);
  let stack: Stack;
  let jobs: PinnedJobs;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let clock = Date.now() - PAST_REFRESHES * HALF_HOUR;
  const scriptErrors: string[] = [];
  const leftLoopback: string[] = [];
  const get = async <T>(path: string) => (await http(`${stack.apiUrl}${path}`)).json as T;

  const refreshAll = async (atMs: number) => {
    stack.sim.advanceClock(HALF_HOUR);
    for (const job of ['trending', 'trending-cas', 'trending@1h', 'trending-cas@1h', 'news'] as const) await jobs.run(job, atMs);
  };

  /** A browser tab that records script errors and refuses (and records) every request not for the API under test. */
  async function openPage(options: Parameters<Browser['newContext']>[0]): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.on('console', (message) => {
      // Chromium logs every 404 answer as an error line: the page asks for what may not exist (an unknown username, a token without sentiment).
      if (message.type() === 'error' && !message.text().includes('status of 404 (Not Found)')) scriptErrors.push(message.text());
    });
    page.on('pageerror', (error) => scriptErrors.push(error.message));
    await page.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'data:' || url.host === new URL(stack.apiUrl).host) return route.continue();
      leftLoopback.push(url.href);
      return route.abort();
    });
    await page.goto(stack.apiUrl);
    await page.locator('#board-rows tr').first().waitFor({ timeout: 15_000 });
    return { context, page };
  }

  /** The id of the element that has the keyboard focus (tests run without the DOM's types: page code is a string). */
  const focused = (tab: Page) => tab.evaluate<string | undefined>('document.activeElement?.id');
  const boardTokens = (tab: Page) =>
    tab.evaluate<string[]>(`[...document.querySelectorAll('#board-rows tr')].map((row) => row.dataset.token)`);

  before(async () => {
    // Two windows configured: the board's window menu offers them (and only them).
    stack = await startStack({ workers: 0, env: { TRENDING_WINDOWS: '1h,24h' } });
    jobs = pinnedJobs(stack.config, stack.sim.url);
    for (let i = 0; i < PAST_REFRESHES; i += 1) {
      await refreshAll(clock);
      clock += HALF_HOUR;
    }
    await eventually(async () => ((await http(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined), 15_000, 'ready');
    browser = await launchChromium();
    ({ context, page } = await openPage({ viewport: { width: 1280, height: 1000 } }));
  });

  after(async () => {
    await browser?.close();
    await jobs?.close();
    await stack?.close();
  });

  it('shows the current trending tokens in rank order, their figures and sentiment, and how old the data is', async () => {
    const trending = await get<Envelope<TrendingToken[]>>('/api/market/trending');
    expect(await boardTokens(page)).to.deep.equal(trending.data.map((item) => item.token));
    const first = trending.data[0]!;
    const firstRow = (await page.locator('#board-rows tr').first().innerText()).replace(/\s+/g, ' ');
    expect(firstRow)
      .to.include(first.name)
      .and.include(first.mentions.toLocaleString('en'))
      .and.include(first.smartMoneyMentions.toLocaleString('en'));
    // The page wrote it a moment ago: a minute may have turned since.
    const minutes = Math.floor((Date.now() - Date.parse(trending.cachedAt)) / 60_000);
    expect(await page.locator('#board-updated').innerText()).to.be.oneOf([`${minutes} minutes ago`, `${minutes - 1} minutes ago`]);
    expect(await page.locator('#board-updated').getAttribute('datetime')).to.equal(trending.cachedAt);
    // Sentiment labels arrive after the board: at least one token has a record.
    await page
      .locator('#board-rows .badge.bullish, #board-rows .badge.bearish, #board-rows .badge.neutral')
      .first()
      .waitFor({ timeout: 10_000 });
    const cas = await get<Envelope<{ address: string }[]>>('/api/market/trending-cas');
    expect(await page.locator('#cas-rows code').allInnerTexts()).to.deep.equal(cas.data.map((ca) => ca.address));
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-board.png'), fullPage: true });
  });

  it('replaces the board when a refresh lands, without a reload', async () => {
    await page.evaluate('window.loadedOnce = true');
    const before = await get<Envelope<TrendingToken[]>>('/api/market/trending');
    await page.getByText('Live: updates arrive').waitFor({ timeout: 10_000 });
    await refreshAll(Date.now());
    const after = await get<Envelope<TrendingToken[]>>('/api/market/trending');
    expect(after.cachedAt).not.to.equal(before.cachedAt);
    await page.locator(`#board-updated[datetime="${after.cachedAt}"]`).waitFor({ timeout: 10_000 });
    expect(await page.locator('#board-updated').innerText()).to.equal('just now');
    expect(await boardTokens(page)).to.deep.equal(after.data.map((item) => item.token));
    expect(await page.evaluate('window.loadedOnce')).to.equal(true);
  });

  it('opens a token view from the board that charts its history from the history routes', async () => {
    const token = (await boardTokens(page))[0]!;
    await page.locator('#board-rows button.ticker').first().click();
    await page.locator('#token-view').waitFor({ state: 'visible' });
    expect(await focused(page)).to.equal('token-title');
    const history = await get<{ points: unknown[] }>(`/api/market/tokens/${token}/history`);
    const sentimentHistory = await get<{ points: unknown[] }>(`/api/market/sentiment/${token}/history`);
    expect(history.points.length, 'trending history').to.be.greaterThan(PAST_REFRESHES - 1);
    const mindshare = await get<{ points: unknown[] }>(`/api/market/tokens/${token}/mindshare`);
    await page
      .getByText(
        `${history.points.length} points of trending history, ${sentimentHistory.points.length} points of sentiment (interval 30m), ` +
          `${mindshare.points.length} points of mindshare (interval 1h).`,
      )
      .waitFor({ timeout: 10_000 });
    // Mindshare over time beside the other charts (issue 37).
    await page.locator('#chart-mindshare canvas').waitFor({ timeout: 10_000 });
    // Each series is drawn: pixels of its stroke colour on the chart's canvas.
    const drawn = async (chart: string, [r, g, b]: readonly [number, number, number]) =>
      page.evaluate<number>(`(() => {
        const canvas = document.querySelector('${chart} canvas');
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let pixels = 0;
        for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - ${r}) < 8 && Math.abs(data[i + 1] - ${g}) < 8 && Math.abs(data[i + 2] - ${b}) < 8) pixels += 1;
        return pixels;
      })()`);
    expect(await drawn('#chart-mentions', [11, 87, 208]), 'mentions line').to.be.greaterThan(50);
    expect(await drawn('#chart-mentions', [179, 38, 30]), 'smart-money line').to.be.greaterThan(20);
    expect(await drawn('#chart-sentiment', [10, 107, 43]), 'sentiment line').to.be.greaterThan(20);
    expect(await page.locator('#token-sentiment').innerText()).to.match(
      /Sentiment now: (bullish|bearish|neutral) score|Token not found in index/,
    );
    expect(new URL(page.url()).hash).to.equal(`#token=${token}`);
    await page.locator('#token-view').screenshot({ path: join(ARTIFACTS, 'dashboard-token.png') });
    // The README's picture (docs/images/dashboard.png is a copy): the token view above the board and the news, as a wide screen shows them.
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png') });
    await page.keyboard.press('Escape');
    await page.locator('#token-view').waitFor({ state: 'hidden' });
  });

  it('filters the news feed to one token: only posts that mention it, counted as the API counts them', async () => {
    const news = await get<Envelope<NewsItem[]>>('/api/market/news?limit=50');
    const token = news.data.flatMap((post) => post.tokens)[0]!;
    const filtered = await get<Envelope<NewsItem[]>>(`/api/market/news?token=${token}&limit=10`);
    await page.locator('#news-token').fill(token.toLowerCase());
    await page.locator('#news-filter button[type=submit]').click();
    const total = filtered.pagination?.total ?? 0;
    await page.getByText(`${total.toLocaleString('en')} post${total === 1 ? '' : 's'} mention ${token}.`).waitFor({ timeout: 10_000 });
    const posts = page.locator('#news-list > li');
    expect(await posts.count()).to.equal(filtered.data.length);
    for (const chips of await page.locator('#news-list .chips').allInnerTexts()) expect(chips.split(/\s+/)).to.include(`$${token}`);
    expect(await page.locator('#news-list .byline strong').allInnerTexts()).to.deep.equal(filtered.data.map((post) => `@${post.author}`));
    await page.locator('#news').screenshot({ path: join(ARTIFACTS, 'dashboard-news.png') });
    await page.locator('#news-all').click();
    await page.getByText(`${news.pagination?.total.toLocaleString('en')} posts from tracked accounts.`).waitFor({ timeout: 10_000 });
  });

  it('looks a username up: its stats, or the 404 message', async () => {
    // A lookup the cache cannot answer is the worker's job: one joins now that the pinned history is written.
    await stack.startWorkers(1);
    const username = stack.sim.trackedUsernames()[2]!;
    await page.locator('#stats-username').fill(`@${username}`);
    await page.locator('#stats-username').press('Enter');
    await page.locator('#stats-result h3').getByText(`@${username}`).waitFor({ timeout: 10_000 });
    expect(await page.locator('#stats-result dl').innerText()).to.match(/Index score\s+[\d.]+ \/ 100/);
    await page.locator('#stats-username').fill('nobody_at_all_2');
    await page.locator('#stats-username').press('Enter');
    await page.locator('#stats-result .error').getByText('Username not found in index').waitFor({ timeout: 10_000 });
  });

  it('is usable from the keyboard: a ticker opens its view with Enter, Escape closes it', async () => {
    await page.locator('#board-rows button.ticker').first().focus();
    await page.keyboard.press('Enter');
    await page.locator('#token-view').waitFor({ state: 'visible' });
    expect(await focused(page)).to.equal('token-title');
    await page.keyboard.press('Escape');
    await page.locator('#token-view').waitFor({ state: 'hidden' });
    expect(await focused(page)).to.equal('board-title');
  });

  it('does not scroll sideways on a 375 px phone, board, news and token view included', async () => {
    const phone = await openPage({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    try {
      const overflow = () => phone.page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      await phone.page.locator('#news-list > li').first().waitFor();
      expect(await overflow(), 'board and news').to.equal(0);
      await phone.page.locator('#board-rows button.ticker').first().click();
      await phone.page.locator('#chart-mentions canvas').waitFor({ timeout: 10_000 });
      expect(await overflow(), 'token view').to.equal(0);
      await phone.page.screenshot({ path: join(ARTIFACTS, 'dashboard-phone.png') });
    } finally {
      await phone.context.close();
    }
  });

  it('with one point of history, or none, says so in a sentence that reads and keeps the time axis on the day asked for', async () => {
    // A first start: the history routes' answers cut to their last point (trending) and to none (sentiment).
    const first = await openPage({ viewport: { width: 1280, height: 1000 } });
    try {
      const cut = (keep: number) => async (route: Route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { points: unknown[] };
        await route.fulfill({ response, json: { ...body, points: body.points.slice(body.points.length - keep) } });
      };
      await first.page.route('**/api/market/tokens/*/history*', cut(1));
      await first.page.route('**/api/market/sentiment/*/history*', cut(0));
      await first.page.locator('#board-rows button.ticker').first().click();
      await first.page.getByText(/^1 point of trending history, 0 points of sentiment \(interval 30m\)/).waitFor({ timeout: 10_000 });
      // The lone point sits at the right end of an axis spanning the day asked for (it is the latest
      // refresh); uPlot's own range would centre it on an axis spread over years (2027 to 2029).
      const across = await first.page.evaluate<number>(`(() => {
        const canvas = document.querySelector('#chart-mentions canvas');
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let sum = 0, pixels = 0;
        for (let i = 0; i < data.length; i += 4)
          if (Math.abs(data[i] - 11) < 8 && Math.abs(data[i + 1] - 87) < 8 && Math.abs(data[i + 2] - 208) < 8) {
            sum += (i / 4) % canvas.width;
            pixels += 1;
          }
        return pixels === 0 ? -1 : sum / pixels / canvas.width;
      })()`);
      expect(across, 'where the point is drawn, across the canvas').to.be.above(0.85);
    } finally {
      await first.context.close();
    }
  });

  it('offers the configured windows on the board, and shows the chosen window’s list', async () => {
    const options = await page.evaluate<string[]>(`[...document.querySelectorAll('#board-window option')].map((option) => option.value)`);
    expect(options).to.deep.equal(['1h', '24h']);
    expect(await page.locator('#board-window').inputValue()).to.equal('24h');
    const hour = await get<Envelope<TrendingToken[]>>('/api/market/trending?window=1h');
    await page.locator('#board-window').selectOption('1h');
    await eventually(
      async () => ((await boardTokens(page)).join() === hour.data.map((item) => item.token).join() ? true : undefined),
      5000,
      'the 1 h board',
    );
    const day = await get<Envelope<TrendingToken[]>>('/api/market/trending');
    await page.locator('#board-window').selectOption('24h');
    await eventually(
      async () => ((await boardTokens(page)).join() === day.data.map((item) => item.token).join() ? true : undefined),
      5000,
      'the 24 h board',
    );
  });

  it('shows the top 10 tokens as cards on a phone, and the rest when asked', async () => {
    const phone = await openPage({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    try {
      const total = (await get<Envelope<TrendingToken[]>>('/api/market/trending')).data.length;
      expect(total).to.be.greaterThan(10);
      const visible = () => phone.page.locator('#board-rows tr:visible').count();
      expect(await visible()).to.equal(10);
      const more = phone.page.locator('#board-more');
      expect(await more.innerText()).to.equal(`Show ${total - 10} more`);
      const shortPage = await phone.page.evaluate<number>('document.documentElement.scrollHeight');
      await more.click();
      expect(await visible()).to.equal(total);
      expect(await more.isVisible()).to.equal(false);
      // The folded board is the point: the page was far shorter before the reader asked for more.
      expect(await phone.page.evaluate<number>('document.documentElement.scrollHeight')).to.be.greaterThan(shortPage * 1.5);
    } finally {
      await phone.context.close();
    }
    // A wide window shows every row and no button.
    expect(await page.locator('#board-rows tr:visible').count()).to.be.greaterThan(10);
    expect(await page.locator('#board-more').isVisible()).to.equal(false);
  });

  it('logged no script error and sent no request beyond the API under test', () => {
    expect(scriptErrors).to.deep.equal([]);
    expect(leftLoopback).to.deep.equal([]);
    void context;
  });
});
