// @ts-check
/**
 * The dashboard's entry: first reads of each panel, then the event stream keeps them current
 * (a refresh replaces the board without a reload; EventSource reconnects and resumes by itself).
 */
import { api, messageOf } from './api.js';
import { boardWindow, renderBoard, renderCas, setSentiment, setUpBoard } from './board.js';
import { byId, tickAgo } from './format.js';
import { setUpNews, showNews } from './news.js';
import { setUpStats } from './stats.js';
import { showLeaderboard } from './callers.js';
import { showStories } from './stories.js';
import { openToken, refreshTokenView, setUpTokenView, tokenInLocation } from './token-view.js';

/** @typedef {import('./api.js').Schemas['SentimentEvent']} SentimentEvent */
/** @typedef {import('./api.js').Schemas['NewsEvent']} NewsEvent */
/** @typedef {import('./api.js').Schemas['TrendingTokenList']} TrendingList */

const live = byId('live', HTMLParagraphElement);

/** @param {string} text */
const say = (text) => {
  live.textContent = text;
};

/** The board in the window chosen (a later choice wins over a slower read). */
async function showBoard() {
  const window = boardWindow();
  const trending = await api.GET('/api/market/trending', { params: { query: { window } } });
  if (window !== boardWindow()) return;
  if (trending.data) renderBoard(trending.data, openToken);
  else say(`Trending unavailable: ${messageOf(trending.error, trending.response)}`);
}

async function firstReads() {
  const [, cas] = await Promise.all([showBoard(), api.GET('/api/market/trending-cas')]);
  if (cas.data) renderCas(cas.data);
  await showNews('', 1);
  await showLeaderboard();
  await showStories();
}

/** @param {import('./board.js').TrendingWindow[]} windows */
function follow(windows) {
  const stream = new EventSource('/api/market/stream');
  stream.addEventListener('open', () => say('Live: updates arrive as the data refreshes.'));
  stream.addEventListener('error', () => say('Reconnecting to live updates…'));
  // Each window's list is a topic of its own (`trending@1h`); the board redraws from the one it shows.
  for (const window of windows) {
    stream.addEventListener(window === '24h' ? 'trending' : `trending@${window}`, (event) => {
      /** @type {TrendingList} */
      const list = JSON.parse(event.data);
      if (window === boardWindow()) renderBoard(list, openToken);
      // The token view charts the 24 h list's history.
      if (window === '24h') refreshTokenView(list.cachedAt);
    });
  }
  stream.addEventListener('trending-cas', (event) => renderCas(JSON.parse(event.data)));
  stream.addEventListener('stories', () => void showStories());
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

const windows = setUpBoard(() => void showBoard());
setUpTokenView();
setUpNews();
setUpStats();
setInterval(tickAgo, 30_000);
const linked = tokenInLocation();
if (linked) openToken(linked);
await firstReads();
follow(windows);
