// @ts-check
/** The username lookup: GET /api/market/stats/:username, its figures or its error message (404 when the index does not know the account). */
import { api, messageOf } from './api.js';
import { byId, count, el } from './format.js';

/**
 * @param {string} term
 * @param {string} value
 */
const entry = (term, value) => [el('dt', { text: term }), el('dd', { text: value })];

/** @param {string} username */
async function lookUp(username) {
  const result = byId('stats-result', HTMLDivElement);
  result.replaceChildren(el('p', { className: 'muted', text: 'Looking up…' }));
  const { data, error, response } = await api.GET('/api/market/stats/{username}', { params: { path: { username } } });
  if (!data) {
    result.replaceChildren(el('p', { className: 'error', text: messageOf(error, response) }));
    return;
  }
  result.replaceChildren(
    el('h3', { text: `@${data.username}` }),
    el('dl', { className: 'stats' }, [
      ...entry('Index score', `${data.indexScore.toFixed(1)} / 100`),
      ...entry('Smart-money rank', count(data.smartMoneyRank)),
      ...entry('Posts', count(data.totalPosts)),
      ...entry('Average engagement', count(Math.round(data.avgEngagement))),
      ...entry('Top tokens', data.topTokens.join(', ') || '—'),
    ]),
  );
}

export function setUpStats() {
  const form = byId('stats-form', HTMLFormElement);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const username = byId('stats-username', HTMLInputElement).value.trim();
    if (username)
      void lookUp(username).catch((error) =>
        byId('stats-result', HTMLDivElement).replaceChildren(el('p', { className: 'error', text: String(error) })),
      );
  });
}
