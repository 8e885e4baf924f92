// @ts-check
/** Formatting and DOM helpers shared by the dashboard's views. Text always goes in as textContent: post text is untrusted. */

/**
 * An element with classes and text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {{ className?: string, text?: string, attrs?: Record<string, string> }} [options]
 * @param {(Node | string)[]} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, options = {}, children = []) {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.text !== undefined) node.textContent = options.text;
  for (const [name, value] of Object.entries(options.attrs ?? {})) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/**
 * An element of the page, by id, of the expected type.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new () => T} type
 * @returns {T}
 */
export function byId(id, type) {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`#${id} is missing`);
  return node;
}

const numberFormat = new Intl.NumberFormat('en');
const compactFormat = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** @param {number} value */
export const count = (value) => numberFormat.format(value);
/** @param {number} value */
export const compact = (value) => compactFormat.format(value);
/** @param {number} value */
export const percent = (value) => `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value).toFixed(2)} %`;

/**
 * "just now", "1 minute ago", "5 minutes ago", "2 hours ago".
 * @param {string} iso
 * @param {number} [now]
 */
export function ago(iso, now = Date.now()) {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} hours ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/**
 * Shows a time element as "N minutes ago", with the exact time in its datetime and title.
 * @param {HTMLTimeElement} node
 * @param {string} iso
 */
export function setAgo(node, iso) {
  node.dateTime = iso;
  node.title = new Date(iso).toLocaleString();
  node.textContent = ago(iso);
}

/** Keeps every "N minutes ago" on the page current. */
export function tickAgo() {
  for (const node of document.querySelectorAll('time[datetime]')) {
    if (node instanceof HTMLTimeElement && node.dataset.ago !== 'off') node.textContent = ago(node.dateTime);
  }
}
