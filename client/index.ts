/**
 * A typed client of the Market Signals API: openapi-fetch over the types openapi-typescript
 * generates from /openapi.json (client/schema.ts, `npm run openapi:types`). Paths, parameters,
 * bodies and each status's response are checked by the compiler.
 */
import createClient, { type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export function createMarketSignalsClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}) {
  return createClient<paths>({ baseUrl, ...options });
}

export type MarketSignalsClient = ReturnType<typeof createMarketSignalsClient>;
