// @ts-check
/** The trending board and the trending contract addresses: rendered from a list as GET returns it, or as the stream pushes it. */
import { api } from './api.js';
import { byId, compact, count, el, percent, setAgo } from './format.js';

/** @typedef {import('./api.js').Schemas['TrendingTokenList']} TrendingList */
/** @typedef {import('./api.js').Schemas['TrendingCaList']} CaList */
/** @typedef {import('./api.js').Schemas['SentimentRecord']} SentimentRecord */
/** @typedef {NonNullable<NonNullable<import('./api.js').Paths['/api/market/trending']['get']['parameters']['query']>['window']>} TrendingWindow */

/** How each window reads in the board's menu ("Mentions over the last hour"). */
const WINDOW_LABELS = /** @type {const} */ ({
  '1h': 'the last hour',
  '4h': 'the last 4 hours',
  '24h': 'the last 24 hours',
  '7d': 'the last 7 days',
  '30d': 'the last 30 days',
});

/** On a narrow screen (cards) a table shows this many rows, and this many more at each "Show more": the board's 50 cards were a page 14,000 px long. */
const PHONE_ROWS = 10;

/**
 * A table's "Show more": it marks the rows past those shown, which the narrow layout hides (dashboard.css).
 * @param {string} rowsId
 * @param {string} moreId
 */
function cardPager(rowsId, moreId) {
  let shown = PHONE_ROWS;
  const rows = () => [...byId(rowsId, HTMLTableSectionElement).rows];
  const more = byId(moreId, HTMLButtonElement);
  const limit = () => {
    for (const [index, row] of rows().entries()) row.classList.toggle('beyond', index >= shown);
    more.hidden = rows().length <= shown;
  };
  more.addEventListener('click', () => {
    const first = shown;
    shown += PHONE_ROWS;
    limit();
    // The keyboard goes on from the first card revealed (a board card's ticker).
    rows()[first]?.querySelector('button')?.focus();
  });
  return {
    limit,
    reset: () => {
      shown = PHONE_ROWS;
    },
  };
}

const boardCards = cardPager('board-rows', 'board-more');
const casCards = cardPager('cas-rows', 'cas-more');

/** Parallel sentiment reads while the board fills in: a browser opens about six connections per host. */
const SENTIMENT_READS_AT_ONCE = 6;

/** Each token's latest sentiment label, as read or pushed: the board is redrawn from it. */
const labels = new Map();

/**
 * A cell labelled for the narrow layout, where each row becomes a card.
 * @param {string} label
 * @param {Node | string} content
 * @param {string} [className]
 */
function cell(label, content, className) {
  return el('td', { attrs: { 'data-label': label }, ...(className ? { className } : {}) }, [content]);
}

/** @param {string | undefined} label */
function sentimentBadge(label) {
  return el('span', { className: `badge ${label ?? 'unknown'}`, text: label ?? '—' });
}

/**
 * @param {TrendingList} list
 * @param {(token: string) => void} openToken
 */
export function renderBoard(list, openToken) {
  const rows = list.data.map((item, index) => {
    const ticker = el('button', {
      className: 'ticker',
      text: item.token,
      attrs: { type: 'button', 'aria-label': `${item.token}: sentiment and history` },
    });
    ticker.addEventListener('click', () => openToken(item.token));
    const change = el('span', {
      className: item.priceChange24h > 0 ? 'up' : item.priceChange24h < 0 ? 'down' : '',
      text: percent(item.priceChange24h),
    });
    const row = el('tr', { attrs: { 'data-token': item.token } }, [
      cell('Rank', String(index + 1), 'rank'),
      cell('Ticker', ticker),
      cell('Name', item.name),
      cell('Mentions', count(item.mentions), 'num'),
      cell('Smart money', count(item.smartMoneyMentions), 'num'),
      cell('24 h', change, 'num'),
      cell('Sentiment', sentimentBadge(labels.get(item.token.toUpperCase())), 'sentiment'),
    ]);
    return row;
  });
  byId('board-rows', HTMLTableSectionElement).replaceChildren(...rows);
  boardCards.limit();
  setAgo(byId('board-updated', HTMLTimeElement), list.cachedAt);
  performance.mark('board-shown');
  void fillSentiment(list.data.map((item) => item.token).filter((token) => !labels.has(token.toUpperCase())));
}

/** The window the board shows. */
export const boardWindow = () => /** @type {TrendingWindow} */ (byId('board-window', HTMLSelectElement).value);

/**
 * The window menu, from the windows the page was served with (TRENDING_WINDOWS; shown when there is a choice).
 * @param {() => void} onWindow called when the reader picks another window
 * @returns {TrendingWindow[]} the windows configured
 */
export function setUpBoard(onWindow) {
  const menu = byId('board-window', HTMLSelectElement);
  const windows = /** @type {TrendingWindow[]} */ ((menu.dataset.windows || '24h').split(','));
  menu.replaceChildren(...windows.map((window) => new Option(WINDOW_LABELS[window], window, window === '24h', window === '24h')));
  /** @type {HTMLElement} */ (menu.parentElement).hidden = windows.length < 2;
  menu.addEventListener('change', () => {
    boardCards.reset();
    onWindow();
  });
  return windows;
}

/** @param {SentimentRecord} record */
export function setSentiment(record) {
  labels.set(record.token.toUpperCase(), record.label);
  const row = document.querySelector(`#board-rows tr[data-token="${CSS.escape(record.token)}"] td.sentiment`);
  row?.replaceChildren(sentimentBadge(record.label));
}

/**
 * Reads the sentiment of the tokens the board shows that it has no label for yet.
 * @param {string[]} tokens
 */
async function fillSentiment(tokens) {
  const queue = [...tokens];
  const reader = async () => {
    for (let token = queue.shift(); token !== undefined; token = queue.shift()) {
      const { data } = await api.GET('/api/market/sentiment/{token}', { params: { path: { token } } });
      // A token no current post mentions has no record (404): its badge stays "—".
      if (data) setSentiment(data);
    }
  };
  await Promise.all(Array.from({ length: SENTIMENT_READS_AT_ONCE }, reader));
}

/** @param {CaList} list */
export function renderCas(list) {
  const rows = list.data.map((ca) => {
    const first = el('time');
    setAgo(first, ca.firstSeenAt);
    return el('tr', {}, [
      cell('Chain', ca.chain),
      cell('Address', el('code', { className: 'address', text: ca.address })),
      cell('Mentions', count(ca.mentions), 'num'),
      cell('Smart money', compact(ca.smartMoneyMentions), 'num'),
      cell('First seen', first),
    ]);
  });
  byId('cas-rows', HTMLTableSectionElement).replaceChildren(...rows);
  casCards.limit();
  setAgo(byId('cas-updated', HTMLTimeElement), list.cachedAt);
}
