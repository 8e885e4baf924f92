// @ts-check
/**
 * The callers (docs/decisions.md, D22): the leaderboard panel (GET /api/market/callers) and a
 * token's first callers in its view (GET /api/market/tokens/:token/callers).
 */
import { api, messageOf } from './api.js';
import { byId, count, el } from './format.js';

/** @param {number | null} minutes */
const lead = (minutes) => (minutes === null ? '—' : minutes >= 120 ? `${(minutes / 60).toFixed(1)} h` : `${minutes} min`);
/** @param {number | null} rate */
const rate = (rate) => (rate === null ? '—' : `${Math.round(rate * 100)}%`);

export async function showLeaderboard() {
  const rows = byId('callers-rows', HTMLTableSectionElement);
  const { data, error, response } = await api.GET('/api/market/callers', { params: { query: { window: '30d', minCalls: '3' } } });
  if (!data) {
    rows.replaceChildren(el('tr', {}, [el('td', { className: 'error', text: messageOf(error, response) })]));
    return;
  }
  if (data.data.length === 0) rows.replaceChildren(el('tr', {}, [el('td', { className: 'muted', text: 'No account has 3 calls yet.' })]));
  else
    rows.replaceChildren(
      ...data.data
        .slice(0, 20)
        .map((row) =>
          el('tr', {}, [
            el('td', { text: `@${row.username}` }),
            el('td', { className: 'num', text: count(row.calls) }),
            el('td', { className: 'num', text: count(row.hits) }),
            el('td', { className: 'num', text: count(row.pending) }),
            el('td', { className: 'num', text: rate(row.hitRate) }),
            el('td', { className: 'num', text: lead(row.medianLeadMinutes) }),
          ]),
        ),
    );
}

/**
 * The token's breakouts of the last 30 days and who called each first, under its charts.
 * @param {string} token
 */
export async function showTokenCallers(token) {
  const box = byId('token-callers', HTMLDivElement);
  box.replaceChildren();
  const { data } = await api.GET('/api/market/tokens/{token}/callers', { params: { path: { token }, query: { window: '30d' } } });
  if (!data) return;
  box.replaceChildren(
    el('h3', { text: 'First callers' }),
    ...(data.breakouts.length === 0
      ? [el('p', { className: 'muted', text: 'No breakout into the top 10 in the last 30 days.' })]
      : data.breakouts.map((breakout) =>
          el('p', {
            text:
              `Broke out ${new Date(breakout.at).toLocaleString()}: ` +
              (breakout.firstCallers.map((c) => `@${c.username} ${lead(c.leadMinutes)} ahead`).join(', ') || 'nobody called it'),
          }),
        )),
  );
}
