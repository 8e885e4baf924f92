// @ts-check
/**
 * The typed client of client/ (openapi-fetch over the types generated from /openapi.json), on
 * this origin: every path, parameter and body below is checked against the document by
 * `npm run typecheck`.
 */
import createClient from './openapi-fetch.js';

/** @typedef {import('../../../../../client/schema.js').paths} Paths */
/** @typedef {import('../../../../../client/schema.js').components['schemas']} Schemas */

/** @type {import('openapi-fetch').Client<Paths>} */
export const api = createClient({ baseUrl: window.location.origin });

/**
 * The `{ error }` message of a failed read, or a line saying what happened.
 * @param {unknown} error
 * @param {Response} response
 */
export function messageOf(error, response) {
  const message = /** @type {{ error?: unknown } | undefined} */ (error)?.error;
  return typeof message === 'string' ? message : `HTTP ${response.status}`;
}

const FRESH_TRIES = 4;
const FRESH_PAUSE_MS = 300;

/**
 * A read made again (a few times, briefly apart) until its `cachedAt` reaches `refreshedAt`: the
 * stream may announce a refresh a moment before this API process has loaded it.
 * @template {{ data?: { cachedAt: string } }} R
 * @param {() => Promise<R>} read
 * @param {string} [refreshedAt]
 * @returns {Promise<R>}
 */
export async function readFresh(read, refreshedAt) {
  let result = await read();
  for (let tries = 1; refreshedAt && result.data && result.data.cachedAt < refreshedAt && tries < FRESH_TRIES; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, FRESH_PAUSE_MS));
    result = await read();
  }
  return result;
}
