// @ts-check
/**
 * The top stories (GET /api/market/stories, docs/decisions.md#d23): title, tokens, authors,
 * status, first poster and age; each opens its posts (GET /api/market/stories/:id).
 */
import { api, messageOf } from './api.js';
import { byId, el, setAgo } from './format.js';

/** @typedef {import('./api.js').Schemas['Story']} Story */

const SHOWN = 8;

/** @param {Story} story */
function renderStory(story) {
  const age = el('time');
  setAgo(age, story.firstSeenAt);
  const posts = el('ol', { className: 'posts story-posts' });
  const open = el('button', { className: 'story-title', text: story.title, attrs: { type: 'button', 'aria-expanded': 'false' } });
  open.addEventListener('click', () => void togglePosts(story.id, open, posts));
  return el('li', { className: 'story' }, [
    open,
    el('p', { className: 'byline' }, [
      el('span', { text: story.tokens.map((token) => `$${token}`).join(' ') || '—' }),
      el('span', { className: 'muted', text: ` · ${story.authors} authors · ${story.status} · first @${story.firstPoster} ` }),
      age,
    ]),
    posts,
  ]);
}

/**
 * @param {string} id
 * @param {HTMLElement} button
 * @param {HTMLElement} list
 */
async function togglePosts(id, button, list) {
  if (list.childElementCount > 0) {
    list.replaceChildren();
    button.setAttribute('aria-expanded', 'false');
    return;
  }
  const { data, error, response } = await api.GET('/api/market/stories/{id}', { params: { path: { id } } });
  if (!data) {
    list.replaceChildren(el('li', { className: 'muted', text: messageOf(error, response) }));
    return;
  }
  button.setAttribute('aria-expanded', 'true');
  // Written by strangers: shown as text, never as markup.
  list.replaceChildren(
    ...data.posts.map((post) => el('li', { className: 'post' }, [el('p', { className: 'text', text: `@${post.author}: ${post.text}` })])),
  );
}

/** Reads and draws the 24 hours' top stories. */
export async function showStories() {
  const { data, error, response } = await api.GET('/api/market/stories', { params: { query: { window: '24h' } } });
  const status = byId('stories-status', HTMLParagraphElement);
  if (!data) {
    status.textContent = messageOf(error, response);
    return;
  }
  setAgo(byId('stories-updated', HTMLTimeElement), data.cachedAt);
  status.textContent = data.data.length === 0 ? 'No story in the last 24 hours.' : '';
  byId('stories-list', HTMLOListElement).replaceChildren(...data.data.slice(0, SHOWN).map(renderStory));
}
