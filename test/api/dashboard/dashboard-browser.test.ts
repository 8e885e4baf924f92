/**
 * Issue 31: the dashboard at GET / in a real browser: headless Chromium (Debian's `chromium`)
 * driven by playwright-core, against the API, real Redis, the simulator and the worker's own
 * job functions run at pinned times (so there is history to chart and a refresh lands when the
 * test says). Screenshots go to test/artifacts/ (git-ignored): dashboard-board.png (the whole
 * page), dashboard-token.png, dashboard-news.png, dashboard-phone.png, dashboard-phone-board.png,
 * dashboard-first-start.png and dashboard.png (the window with a token view open, which
 * docs/images/dashboard.png copies).
 */
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ARTIFACTS, launchChromium } from '../../support/chromium.js';
import type { NewsItem, TrendingToken } from '../../../shared/market-types.js';
import { historyKeys } from '../../../shared/snapshot-keys.js';
import { http } from '../../support/http.js';
import { pinnedJobs, type PinnedJobs } from '../../support/pinned-jobs.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';

const HALF_HOUR = 30 * 60_000;
/** Refreshes written before the page opens: a few hours of history, within the default 24 h range. */
const PAST_REFRESHES = 8;
/** TRENDING_WINDOWS: the board offers the last hour besides the 24 hours. */
const WINDOWS_ENV = { TRENDING_WINDOWS: '1h' };
const REFRESHED = ['trending', 'trending@1h', 'trending-cas', 'trending-cas@1h', 'news'] as const;

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
    for (const job of REFRESHED) await jobs.run(job, atMs);
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
    stack = await startStack({ workers: 0, env: WINDOWS_ENV });
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

  it("offers the configured windows; choosing one shows that window's board, which its refreshes keep current", async () => {
    const menu = page.locator('#board-window');
    expect(
      await menu.locator('option').evaluateAll((options) => options.map((option) => (option as { value: string }).value)),
    ).to.deep.equal(['1h', '24h']);
    expect(await menu.inputValue()).to.equal('24h');
    const day = await get<Envelope<TrendingToken[]>>('/api/market/trending');
    const hour = await get<Envelope<TrendingToken[]>>('/api/market/trending?window=1h');
    const mentions = (list: Envelope<TrendingToken[]>) => list.data.map((item) => item.mentions.toLocaleString('en'));
    expect(mentions(hour), 'the simulator counts the hour apart from the day').not.to.deep.equal(mentions(day));
    /** The board shows this list: its tokens in order, with its mention counts. */
    const shows = (list: Envelope<TrendingToken[]>, what: string) =>
      eventually(
        async () => {
          const shown = await page.locator('#board-rows td[data-label="Mentions"]').allInnerTexts();
          const tokens = await boardTokens(page);
          return JSON.stringify([tokens, shown]) === JSON.stringify([list.data.map((item) => item.token), mentions(list)])
            ? true
            : undefined;
        },
        10_000,
        what,
      );
    await shows(day, 'the 24 hours first');
    await menu.selectOption('1h');
    await shows(hour, 'the hour once chosen');
    // A refresh of the hour's list (a stream topic of its own) replaces the board, in that window.
    await refreshAll(Date.now());
    const nextHour = await get<Envelope<TrendingToken[]>>('/api/market/trending?window=1h');
    expect(nextHour.cachedAt).not.to.equal(hour.cachedAt);
    await shows(nextHour, 'the hour refreshed');
    expect(await page.locator('#board-updated').getAttribute('datetime')).to.equal(nextHour.cachedAt);
    await menu.selectOption('24h');
    await shows(await get<Envelope<TrendingToken[]>>('/api/market/trending'), 'the 24 hours again');
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

  it('on a 390 px phone shows the top 10 cards of the board and of the addresses, and 10 more at each "Show more"', async () => {
    // A wide screen shows whole tables, no button.
    expect(await page.locator('#board-rows tr:visible').count()).to.equal(50);
    expect(await page.locator('#board-more').isHidden()).to.equal(true);
    const phone = await openPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    try {
      const cards = (table: string) => phone.page.locator(`${table} tr:visible`).count();
      const height = () => phone.page.evaluate<number>('document.documentElement.scrollHeight');
      await phone.page.locator('#news-list > li').first().waitFor();
      expect(await phone.page.locator('#board-rows tr').count()).to.equal(50);
      expect(await cards('#board-rows')).to.equal(10);
      expect(await phone.page.locator('#cas-rows tr').count()).to.be.greaterThan(10);
      expect(await cards('#cas-rows')).to.equal(10);
      // About 6,100 px with the stories and callers panels; over 13,000 with every card shown.
      const short = await height();
      expect(short).to.be.below(7_000);
      await phone.page.screenshot({ path: join(ARTIFACTS, 'dashboard-phone-board.png') });
      await phone.page.locator('#board-more').click();
      expect(await cards('#board-rows')).to.equal(20);
      expect(await height()).to.be.above(short);
      // The keyboard goes on from the first card revealed.
      const tokens = await boardTokens(phone.page);
      expect(await phone.page.evaluate<string | undefined>('document.activeElement?.closest("tr")?.dataset.token')).to.equal(tokens[10]);
      for (let i = 0; i < 3; i += 1) await phone.page.locator('#board-more').click();
      expect(await cards('#board-rows')).to.equal(50);
      expect(await phone.page.locator('#board-more').isHidden()).to.equal(true);
      await phone.page.locator('#cas-more').click();
      expect(await cards('#cas-rows')).to.equal(Math.min(20, await phone.page.locator('#cas-rows tr').count()));
    } finally {
      await phone.context.close();
    }
  });

  it('logged no script error and sent no request beyond the API under test', () => {
    expect(scriptErrors).to.deep.equal([]);
    expect(leftLoopback).to.deep.equal([]);
    void context;
  });
});

describe('the dashboard on a fresh start (four refreshes, a minute apart) in headless Chromium', function () {
  this.timeout(120_000);
  let stack: Stack;
  let jobs: PinnedJobs;
  let browser: Browser;

  before(async () => {
    stack = await startStack({ workers: 0 });
    jobs = pinnedJobs(stack.config, stack.sim.url);
    for (let minutesAgo = 3; minutesAgo >= 0; minutesAgo -= 1) {
      stack.sim.advanceClock(60_000);
      for (const job of ['trending', 'trending-cas', 'news'] as const) await jobs.run(job, Date.now() - minutesAgo * 60_000);
    }
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await jobs?.close();
    await stack?.close();
  });

  it("fits a token's few minutes of history to the time axis and marks each point, under a sentence that reads", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    try {
      const page = await context.newPage();
      // Each chart the page makes is kept where the test can read its time axis (uPlot is the page's global).
      await page.addInitScript(`window.charts = [];
        let wrapped;
        Object.defineProperty(window, 'uPlot', {
          get: () => wrapped,
          set: (Plot) => { wrapped = class extends Plot { constructor(...args) { super(...args); window.charts.push(this); } }; },
        });`);
      const token = (await http(`${stack.apiUrl}/api/market/trending`)).json as Envelope<TrendingToken[]>;
      await page.goto(`${stack.apiUrl}/#token=${token.data[0]!.token}`);
      await page.getByText(/^4 points of trending history, \d+ points? of sentiment \(interval 30m\), /).waitFor({ timeout: 15_000 });
      // The mentions and sentiment charts (the mindshare one charts hourly posts): the axis spans
      // the minutes of data, not 24 hours, so the line is as wide as the chart; each point is marked.
      const charts = await page.evaluate<{ span: number; width: number; line: number; marked: boolean[] }[]>(`window.charts
        .filter((chart) => chart.root.parentElement.id !== 'chart-mindshare')
        .map((chart) => {
          const xs = chart.data[0];
          return {
            span: chart.scales.x.max - chart.scales.x.min,
            width: chart.bbox.width,
            line: chart.valToPos(xs[xs.length - 1], 'x', true) - chart.valToPos(xs[0], 'x', true),
            marked: chart.series.slice(1).map((series, i) => series.points.show(chart, i + 1, 0, xs.length - 1)),
          };
        })`);
      expect(charts).to.have.length(2);
      for (const chart of charts) {
        expect(chart.span, 'seconds on the time axis').to.be.within(300, 3600);
        expect(chart.line / chart.width, 'the line across the plot').to.be.greaterThan(0.5);
        expect(chart.marked, 'points marked').to.not.include(false);
      }
      await page.locator('#token-view').screenshot({ path: join(ARTIFACTS, 'dashboard-first-start.png') });
    } finally {
      await context.close();
    }
  });

  it('charts a listed token with no sentiment series, saying it has no sentiment yet', async () => {
    // A token the index lists but no tracked post mentions has no sentiment series (its history read is a 404): here its series is removed.
    const list = (await http(`${stack.apiUrl}/api/market/trending`)).json as Envelope<TrendingToken[]>;
    const token = list.data.at(-1)!.token;
    await stack.redis.del(historyKeys.sentiment(token));
    expect((await http(`${stack.apiUrl}/api/market/sentiment/${token}/history`)).status).to.equal(404);
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    try {
      const page = await context.newPage();
      await page.goto(`${stack.apiUrl}/#token=${token}`);
      await page.getByText(/^4 points of trending history, no sentiment yet \(interval 30m\), /).waitFor({ timeout: 15_000 });
      await page.locator('#chart-mentions canvas').waitFor();
    } finally {
      await context.close();
    }
  });
});
