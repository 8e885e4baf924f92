// @ts-check
/**
 * The dashboard's entry: first reads of each panel, then the event stream keeps them current
 * (a refresh replaces the board without a reload; EventSource reconnects and resumes by itself).
 */
import { api, messageOf } from './api.js';
import { renderBoard, renderCas, setSentiment } from './board.js';
import { byId, tickAgo } from './format.js';
import { setUpNews, showNews } from './news.js';
import { setUpStats } from './stats.js';
import { openToken, refreshTokenView, setUpTokenView, tokenInLocation } from './token-view.js';

/** @typedef {import('./api.js').Schemas['SentimentEvent']} SentimentEvent */
/** @typedef {import('./api.js').Schemas['NewsEvent']} NewsEvent */
/** @typedef {import('./api.js').Schemas['TrendingTokenList']} TrendingList */

const live = byId('live', HTMLParagraphElement);

/** @param {string} text */
const say = (text) => {
  live.textContent = text;
};

async function firstReads() {
  const [trending, cas] = await Promise.all([api.GET('/api/market/trending'), api.GET('/api/market/trending-cas')]);
  if (trending.data) renderBoard(trending.data, openToken);
  else say(`Trending unavailable: ${messageOf(trending.error, trending.response)}`);
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
    renderBoard(list, openToken);
    refreshTokenView(list.cachedAt);
  });
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
setUpNews();
setUpStats();
setInterval(tickAgo, 30_000);
const linked = tokenInLocation();
if (linked) openToken(linked);
await firstReads();
follow();
