// @ts-check
/** The token view: a token's sentiment now, and its history as charts (uPlot), from the history routes. */
import { api, messageOf, readFresh } from './api.js';
import { byId, count } from './format.js';
import { showTokenCallers } from './callers.js';

/** @typedef {import('./api.js').Schemas['TokenHistory']} TokenHistory */
/** @typedef {import('./api.js').Schemas['SentimentHistory']} SentimentHistory */
/** @typedef {import('./api.js').Schemas['TokenMindshare']} TokenMindshare */

/** Each range's mindshare read: its window and its bucket (7d and 30d are counted per day). */
const MINDSHARE = /** @type {const} */ ({
  1: { window: '24h', interval: '1h' },
  7: { window: '7d', interval: '1d' },
  30: { window: '30d', interval: '1d' },
});

/** Each choice of the range menu: days back, and the interval that keeps it to a few hundred points. */
const RANGES = /** @type {const} */ ({ 1: '30m', 7: '4h', 30: '1d' });

const DAY_MS = 24 * 3600_000;
const CHART_HEIGHT = 220;

/** @type {uPlot[]} */
let charts = [];
/** The token shown, and the request of it that is current (a later click wins). */
let shown = '';
let generation = 0;

const view = () => byId('token-view', HTMLElement);
const status = (text = '') => {
  byId('token-status', HTMLParagraphElement).textContent = text;
};

/** @param {HTMLElement} container */
const widthOf = (container) => Math.max(240, Math.floor(container.getBoundingClientRect().width));

/**
 * The range asked for, ending at the newest refresh. Not uPlot's own range: with one point (a first
 * start) or none, it would spread a lone instant over years.
 * @type {[number, number]}
 */
let xRange = [0, 1];

/** The shortest time axis, in seconds: a lone first point sits at the end of five minutes. */
const MIN_SPAN_S = 300;
/** Up to this many points a series marks each one: uPlot marks them only when they stand far apart. */
const MARKED_UP_TO = 60;

/**
 * A chart's time axis: the range asked for, narrowed to its data while the data covers less of it
 * (a first start's refreshes minutes apart would draw, on a 24-hour axis, a line too short to see).
 * @param {ArrayLike<number>} xs the points' times, oldest first
 * @returns {[number, number]}
 */
function timeAxis(xs) {
  const [from, to] = xRange;
  const first = xs.length > 0 ? Math.min(xs[0] ?? to, to) : to;
  const span = Math.max(MIN_SPAN_S, to - first);
  // A margin each side, so that the first and newest points' marks are not cut by the plot's edge.
  const margin = span * 0.03;
  return [Math.max(from, to - span) - margin, to + margin];
}

/**
 * @param {HTMLElement} container
 * @param {uPlot.AlignedData} data
 * @param {uPlot.Series[]} series
 * @param {uPlot.Scale} [yScale]
 */
function draw(container, data, series, yScale) {
  container.replaceChildren();
  const axis = timeAxis(data[0]);
  const points = { show: data[0].length <= MARKED_UP_TO, size: 7 };
  const chart = new uPlot(
    {
      width: widthOf(container),
      height: CHART_HEIGHT,
      series: [{}, ...series.map((line) => ({ points, ...line }))],
      scales: { x: { time: true, auto: false, range: () => axis }, ...(yScale ? { y: yScale } : {}) },
      axes: [{ stroke: '#3b3b3b' }, { stroke: '#3b3b3b', size: 56 }],
      legend: { live: true },
    },
    data,
    container,
  );
  charts.push(chart);
}

/** @param {string} iso */
const seconds = (iso) => Date.parse(iso) / 1000;

/**
 * "no trending history yet", "1 point of trending history", "3 points of ...": a phrase that reads for any count.
 * @param {number} n
 * @param {string} what
 */
const pointsOf = (n, what) => (n === 0 ? `no ${what} yet` : `${count(n)} ${n === 1 ? 'point' : 'points'} of ${what}`);

/**
 * @param {TokenHistory} trending
 * @param {SentimentHistory | undefined} sentiment
 * @param {TokenMindshare | undefined} mindshare
 */
function drawCharts(trending, sentiment, mindshare) {
  for (const chart of charts) chart.destroy();
  charts = [];
  draw(
    byId('chart-mindshare', HTMLDivElement),
    [(mindshare?.points ?? []).map((p) => seconds(p.at)), (mindshare?.points ?? []).map((p) => p.share * 100)],
    [{ label: 'Share %', stroke: '#6b3fa0', width: 2, fill: 'rgba(107, 63, 160, 0.08)' }],
  );
  draw(
    byId('chart-mentions', HTMLDivElement),
    [trending.points.map((p) => seconds(p.at)), trending.points.map((p) => p.mentions), trending.points.map((p) => p.smartMoneyMentions)],
    [
      { label: 'Mentions', stroke: '#0b57d0', width: 2, spanGaps: false },
      { label: 'Smart money', stroke: '#b3261e', width: 2, dash: [6, 3], spanGaps: false },
    ],
  );
  draw(
    byId('chart-sentiment', HTMLDivElement),
    [(sentiment?.points ?? []).map((p) => seconds(p.at)), (sentiment?.points ?? []).map((p) => p.score)],
    [{ label: 'Score', stroke: '#0a6b2b', width: 2, fill: 'rgba(10, 107, 43, 0.08)' }],
    { auto: false, range: [-1, 1] },
  );
}

/** @returns {{ interval: '30m' | '4h' | '1d', from?: string }} */
function rangeQuery() {
  const days = /** @type {1 | 7 | 30} */ (Number(byId('token-range', HTMLSelectElement).value) || 1);
  return days === 1 ? { interval: RANGES[1] } : { interval: RANGES[days], from: new Date(Date.now() - days * DAY_MS).toISOString() };
}

/**
 * @param {string} token
 * @param {string} [refreshedAt] a trending refresh announced by the stream: its history is read until it includes it
 */
async function load(token, refreshedAt) {
  const mine = ++generation;
  status('Loading…');
  const query = rangeQuery();
  const path = { token };
  /** @type {{ cache?: RequestCache }} */
  const fresh = refreshedAt ? { cache: 'no-cache' } : {};
  const days = /** @type {1 | 7 | 30} */ (Number(byId('token-range', HTMLSelectElement).value) || 1);
  const [record, trending, sentiment, mindshare] = await Promise.all([
    api.GET('/api/market/sentiment/{token}', { params: { path }, ...fresh }),
    readFresh(() => api.GET('/api/market/tokens/{token}/history', { params: { path, query }, ...fresh }), refreshedAt),
    api.GET('/api/market/sentiment/{token}/history', { params: { path, query }, ...fresh }),
    api.GET('/api/market/tokens/{token}/mindshare', { params: { path, query: MINDSHARE[days] }, ...fresh }),
  ]);
  if (mine !== generation) return;
  const line = byId('token-sentiment', HTMLParagraphElement);
  if (record.data) {
    const r = record.data;
    line.replaceChildren(
      'Sentiment now: ',
      Object.assign(document.createElement('span'), { className: `badge ${r.label}`, textContent: r.label }),
      ` score ${r.score.toFixed(2)} over ${count(r.mentions)} posts (${count(r.positive)} positive, ${count(r.neutral)} neutral, ${count(r.negative)} negative)`,
    );
  } else {
    line.textContent = `Sentiment now: ${messageOf(record.error, record.response)}`;
  }
  // A token no post has mentioned has no sentiment series (404): its other charts still show.
  if (!trending.data || (!sentiment.data && sentiment.response.status !== 404)) {
    for (const chart of charts) chart.destroy();
    charts = [];
    const failed = trending.data ? sentiment : trending;
    status(`No history: ${messageOf(failed.error, failed.response)}`);
    return;
  }
  const to = Date.parse(trending.data.cachedAt) / 1000;
  xRange = [to - days * (DAY_MS / 1000), to];
  drawCharts(trending.data, sentiment.data, mindshare.data);
  const sentence =
    `${pointsOf(trending.data.points.length, 'trending history')}, ${pointsOf(sentiment.data?.points.length ?? 0, 'sentiment')} ` +
    `(interval ${query.interval})${mindshare.data ? `, ${pointsOf(mindshare.data.points.length, 'mindshare')} (interval ${mindshare.data.interval})` : ''}.`;
  status(sentence.charAt(0).toUpperCase() + sentence.slice(1));
}

/**
 * Opens the view on a token and moves the focus to it.
 * @param {string} token
 */
export function openToken(token) {
  shown = token.toUpperCase();
  byId('token-title', HTMLHeadingElement).textContent = `${shown}`;
  view().hidden = false;
  if (window.location.hash !== `#token=${shown}`) history.pushState(null, '', `#token=${shown}`);
  byId('token-title', HTMLHeadingElement).focus();
  void load(shown).catch((error) => status(`Could not load ${shown}: ${String(error)}`));
  void showTokenCallers(shown).catch(() => {});
}

export function closeToken() {
  generation += 1;
  shown = '';
  view().hidden = true;
  for (const chart of charts) chart.destroy();
  charts = [];
  if (window.location.hash) history.pushState(null, '', window.location.pathname);
}

/** The token named by the address (`#token=SOL`), if any. */
export function tokenInLocation() {
  const match = /^#token=\$?([A-Za-z0-9]{1,20})$/.exec(window.location.hash);
  return match?.[1];
}

export function setUpTokenView() {
  byId('token-close', HTMLButtonElement).addEventListener('click', () => {
    closeToken();
    byId('board-title', HTMLHeadingElement).focus();
  });
  byId('token-range', HTMLSelectElement).addEventListener('change', () => {
    if (shown) void load(shown);
  });
  view().addEventListener('keydown', (event) => {
    if (event.key === 'Escape') byId('token-close', HTMLButtonElement).click();
  });
  window.addEventListener('popstate', () => {
    const token = tokenInLocation();
    if (token) openToken(token);
    else if (shown) closeToken();
  });
  // Charts follow the page's width (a phone turned, a window resized).
  window.addEventListener('resize', () => {
    for (const chart of charts)
      chart.setSize({ width: widthOf(/** @type {HTMLElement} */ (chart.root.parentElement)), height: CHART_HEIGHT });
  });
}

/**
 * Reloads the view's data after a refresh landed, if it is open.
 * @param {string} refreshedAt
 */
export function refreshTokenView(refreshedAt) {
  if (shown) void load(shown, refreshedAt);
}
