// @ts-check
/** The news feed: pages of GET /api/market/news, optionally of one token (`?token=`), newest first. */
import { api, messageOf, readFresh } from './api.js';
import { byId, compact, count, el, setAgo } from './format.js';

/** @typedef {import('./api.js').Schemas['NewsItem']} NewsItem */

const PAGE_SIZE = 10;

const state = { page: 1, token: '', pages: 1 };

/** @param {NewsItem} post */
function renderPost(post) {
  const when = el('time');
  setAgo(when, post.publishedAt);
  const tokens = post.tokens.map((token) => {
    const chip = el('button', {
      className: 'chip',
      text: `$${token}`,
      attrs: { type: 'button', 'aria-label': `Only posts about ${token}` },
    });
    chip.addEventListener('click', () => void showNews(token));
    return el('li', {}, [chip]);
  });
  return el('li', { className: 'post' }, [
    el('p', { className: 'byline' }, [
      el('strong', { text: `@${post.author}` }),
      el('span', { className: 'muted', text: ` · ${compact(post.authorFollowers)} followers · ` }),
      when,
    ]),
    // Written by strangers: shown as text, never as markup.
    el('p', { className: 'text', text: post.text }),
    el('div', { className: 'post-foot' }, [
      el('ul', { className: 'chips', attrs: { 'aria-label': 'Tokens mentioned' } }, tokens),
      el('span', { className: 'engagement', text: `engagement ${count(Math.round(post.engagementScore))}` }),
    ]),
  ]);
}

/**
 * Shows a page of the feed; a token (or '' for every post) starts again at page 1.
 * @param {string} [token]
 * @param {number} [page]
 * @param {string} [refreshedAt] a refresh announced by the stream: the page is read again until it is at least that recent
 */
export async function showNews(token = state.token, page = token === state.token ? state.page : 1, refreshedAt) {
  const filter = token.replace(/^\$/, '').toUpperCase();
  byId('news-token', HTMLInputElement).value = filter;
  const { data, error, response } = await readFresh(
    () =>
      api.GET('/api/market/news', {
        params: { query: { page, limit: PAGE_SIZE, ...(filter ? { token: filter } : {}) } },
        ...(refreshedAt ? { cache: 'no-cache' } : {}),
      }),
    refreshedAt,
  );
  const status = byId('news-status', HTMLParagraphElement);
  if (!data) {
    status.textContent = messageOf(error, response);
    return;
  }
  Object.assign(state, { page, token: filter, pages: Math.max(1, Math.ceil(data.pagination.total / PAGE_SIZE)) });
  byId('news-list', HTMLOListElement).replaceChildren(...data.data.map(renderPost));
  status.textContent = filter
    ? `${count(data.pagination.total)} post${data.pagination.total === 1 ? '' : 's'} mention ${filter}.`
    : `${count(data.pagination.total)} posts from tracked accounts.`;
  byId('news-page', HTMLSpanElement).textContent = `page ${page} of ${state.pages}`;
  byId('news-newer', HTMLButtonElement).disabled = page <= 1;
  byId('news-older', HTMLButtonElement).disabled = page >= state.pages;
  setAgo(byId('news-updated', HTMLTimeElement), data.cachedAt);
}

export function setUpNews() {
  byId('news-filter', HTMLFormElement).addEventListener('submit', (event) => {
    event.preventDefault();
    void showNews(byId('news-token', HTMLInputElement).value.trim());
  });
  byId('news-all', HTMLButtonElement).addEventListener('click', () => void showNews(''));
  byId('news-newer', HTMLButtonElement).addEventListener('click', () => void showNews(state.token, state.page - 1));
  byId('news-older', HTMLButtonElement).addEventListener('click', () => void showNews(state.token, state.page + 1));
}
