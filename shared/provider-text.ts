/**
 * Strings from providers (token names, chains, usernames, post text) are stored and served,
 * through REST and to agents through MCP, only up to a length: a hostile or broken upstream must
 * not put a megabyte name into every answer and every agent's context (docs/decisions.md#d12).
 */

/** The longest string kept per field name; a field not listed keeps at most DEFAULT_TEXT_LIMIT. */
export const PROVIDER_TEXT_LIMITS: Readonly<Record<string, number>> = {
  text: 4000,
  name: 200,
  chain: 64,
  author: 64,
  username: 64,
  address: 128,
};
export const DEFAULT_TEXT_LIMIT = 200;

/** Most entries an array of one of these fields keeps (a post's cashtags: an agent needs a few, not thousands). */
export const PROVIDER_ARRAY_LIMITS: Readonly<Record<string, number>> = { tokens: 20 };

/**
 * Characters that change how text reads without being seen (issue 38 item 9): bidi controls,
 * zero-width characters, Unicode tag characters (hidden instructions to an agent), other format
 * and control characters but tab and line breaks. A zero-width joiner inside an emoji sequence stays.
 */
/* eslint-disable no-control-regex -- control characters are what it removes */
const INVISIBLE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u180e\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]|(?<!\p{Extended_Pictographic}\ufe0f?)\u200d|\u200d(?!\p{Extended_Pictographic})/gu;
/* eslint-enable no-control-regex */

/** `text` without the characters INVISIBLE names. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

const cut = (text: string, limit: number) => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);

/** `value` with every string cut to its field's limit (an array's strings take the array's field name). */
export function boundProviderText<T>(value: T, field = ''): T {
  if (typeof value === 'string') return cut(stripInvisible(value), PROVIDER_TEXT_LIMITS[field] ?? DEFAULT_TEXT_LIMIT) as T;
  if (Array.isArray(value)) {
    const kept = field in PROVIDER_ARRAY_LIMITS ? value.slice(0, PROVIDER_ARRAY_LIMITS[field]) : value;
    return kept.map((item: unknown) => boundProviderText(item, field)) as T;
  }
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, boundProviderText(item, key)])) as T;
  return value;
}
