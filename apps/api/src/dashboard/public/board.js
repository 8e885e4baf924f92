// @ts-check
/** The trending board and the trending contract addresses: rendered from a list as GET returns it, or as the stream pushes it. */
import { api } from './api.js';
import { byId, compact, count, el, percent, setAgo } from './format.js';

/** @typedef {import('./api.js').Schemas['TrendingTokenList']} TrendingList */
/** @typedef {import('./api.js').Schemas['TrendingCaList']} CaList */
/** @typedef {import('./api.js').Schemas['SentimentRecord']} SentimentRecord */

/** Parallel sentiment reads while the board fills in: a browser opens about six connections per host. */
const SENTIMENT_READS_AT_ONCE = 6;

/** Each token's latest sentiment label, as read or pushed: the board is redrawn from it. */
const labels = new Map();

/** On a phone the board is cards: the top rows first, the rest when the reader asks (50 cards are a page 14,000 px long). */
const PHONE_ROWS = 10;
const phone = matchMedia('(max-width: 640px)');
let showAll = false;

/** Hides the rows past the top ones on a phone, and offers the rest. */
function fold() {
  const rows = [...byId('board-rows', HTMLTableSectionElement).rows];
  const folded = phone.matches && !showAll && rows.length > PHONE_ROWS;
  rows.forEach((row, index) => (row.hidden = folded && index >= PHONE_ROWS));
  const more = byId('board-more', HTMLButtonElement);
  more.hidden = !folded;
  more.textContent = `Show ${rows.length - PHONE_ROWS} more`;
}

export function setUpBoard() {
  byId('board-more', HTMLButtonElement).addEventListener('click', () => {
    showAll = true;
    fold();
    byId('board-rows', HTMLTableSectionElement).rows[PHONE_ROWS]?.querySelector('button')?.focus();
  });
  phone.addEventListener('change', fold);
}

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
  fold();
  setAgo(byId('board-updated', HTMLTimeElement), list.cachedAt);
  performance.mark('board-shown');
  void fillSentiment(list.data.map((item) => item.token).filter((token) => !labels.has(token.toUpperCase())));
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
  setAgo(byId('cas-updated', HTMLTimeElement), list.cachedAt);
}
