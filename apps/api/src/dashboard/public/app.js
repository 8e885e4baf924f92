// @ts-check
/**
 * The dashboard's entry: first reads of each panel, then the event stream keeps them current
 * (a refresh replaces the board without a reload; EventSource reconnects and resumes by itself).
 */
import { api, messageOf } from './api.js';
import { renderBoard, renderCas, setSentiment, setUpBoard } from './board.js';
import { byId, tickAgo } from './format.js';
import { setUpNews, showNews } from './news.js';
import { setUpStats } from './stats.js';
import { openToken, refreshTokenView, setUpTokenView, tokenInLocation } from './token-view.js';

/** @typedef {import('./api.js').Schemas['SentimentEvent']} SentimentEvent */
/** @typedef {import('./api.js').Schemas['NewsEvent']} NewsEvent */
/** @typedef {import('./api.js').Schemas['TrendingTokenList']} TrendingList */
/** @typedef {NonNullable<NonNullable<import('./api.js').Paths['/api/market/trending']['get']['parameters']['query']>['window']>} TrendingWindow */

const live = byId('live', HTMLParagraphElement);

/** @param {string} text */
const say = (text) => {
  live.textContent = text;
};

/** The board's window: 24h (the lists' default) until the reader picks another the operator configures. */
/** @type {TrendingWindow} */
let boardWindow = '24h';
const windowMenu = byId('board-window-menu', HTMLLabelElement);
/** TRENDING_WINDOWS, which the API writes into the page: the only windows the lists answer (another is a 400). */
const WINDOWS = /** @type {TrendingWindow[]} */ ((windowMenu.dataset.windows ?? '').split(',').filter((window) => window !== ''));

async function showBoard() {
  const asked = boardWindow;
  // No window for 24h: the default list, the same bytes and ETag as the stream's `trending`.
  const trending = await api.GET('/api/market/trending', { params: { query: asked === '24h' ? {} : { window: asked } } });
  if (asked !== boardWindow) return; // a later choice won
  if (trending.data) renderBoard(trending.data, openToken);
  else say(`Trending unavailable: ${messageOf(trending.error, trending.response)}`);
}

function setUpWindowMenu() {
  const select = byId('board-window', HTMLSelectElement);
  select.replaceChildren(...WINDOWS.map((window) => new Option(`last ${window}`, window, false, window === boardWindow)));
  windowMenu.hidden = WINDOWS.length < 2;
  select.addEventListener('change', () => {
    boardWindow = /** @type {TrendingWindow} */ (select.value);
    void showBoard();
  });
}

async function firstReads() {
  const [, cas] = await Promise.all([showBoard(), api.GET('/api/market/trending-cas')]);
  if (cas.data) renderCas(cas.data);
  await showNews('', 1);
}

function follow() {
  const stream = new EventSource('/api/market/stream');
  stream.addEventListener('open', () => say('Live: updates arrive as the data refreshes.'));
  stream.addEventListener('error', () => say('Reconnecting to live updates…'));
  stream.addEventListener('trending', (event) => {
    /** @type {TrendingList} */
    const list = JSON.parse(event.data);
    if (boardWindow === '24h') renderBoard(list, openToken);
    refreshTokenView(list.cachedAt);
  });
  // Each other window is a topic of its own (trending@1h, ...): the board follows the one shown.
  for (const window of WINDOWS.filter((w) => w !== '24h')) {
    stream.addEventListener(`trending@${window}`, (event) => {
      if (boardWindow === window) renderBoard(JSON.parse(event.data), openToken);
    });
  }
  stream.addEventListener('trending-cas', (event) => renderCas(JSON.parse(event.data)));
  // The feed's page is read again, so the filter and the paging stay as the reader left them.
  stream.addEventListener('news', (event) => {
    /** @type {NewsEvent} */
    const news = JSON.parse(event.data);
    void showNews(undefined, undefined, news.cachedAt);
  });
  stream.addEventListener('sentiment', (event) => {
    for (const record of /** @type {SentimentEvent} */ (JSON.parse(event.data)).data) setSentiment(record);
  });
}

setUpTokenView();
setUpBoard();
setUpWindowMenu();
setUpNews();
setUpStats();
setInterval(tickAgo, 30_000);
const linked = tokenInLocation();
if (linked) openToken(linked);
await firstReads();
follow();
