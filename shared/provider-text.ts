/**
 * Strings from providers (token names, chains, usernames, post text) are stored and served,
 * through REST and to agents through MCP, only up to a length: a hostile or broken upstream must
 * not put a megabyte name into every answer and every agent's context. The worker bounds what
 * it fetched before storing it (docs/decisions.md#d12); a cut string ends with `…`.
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

const cut = (text: string, limit: number) => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);

/** `value` with every string cut to its field's limit (an array's strings take the array's field name). */
export function boundProviderText<T>(value: T, field = ''): T {
  if (typeof value === 'string') return cut(value, PROVIDER_TEXT_LIMITS[field] ?? DEFAULT_TEXT_LIMIT) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => boundProviderText(item, field)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, boundProviderText(item, key)])) as T;
  }
  return value;
}
