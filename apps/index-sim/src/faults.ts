// Fault switches, so tests and demos can watch the worker cope with a misbehaving provider.
// Settings are replaced as a whole (a field left out is off), never merged, so a test always
// knows exactly which faults are active.

export interface Faults {
  /** Delay before each affected /v1 answer, in ms. 0 = none. */
  latencyMs: number;
  /** Share of affected /v1 requests answered 500, 0..1 (1 = every one). */
  errorRate: number;
  /** Answer every affected /v1 request 429 with this Retry-After (seconds). null = off. */
  rateLimit: { retryAfter: number } | null;
  /** Answer 200 with a body that breaks the contract (truncated JSON or the wrong shape). */
  malformed: boolean;
  /** Accept affected requests and never answer them (until the simulator closes). */
  hang: boolean;
  /** Only /v1 paths starting with one of these prefixes are affected. null = all of /v1. */
  paths: string[] | null;
}

export const NO_FAULTS: Readonly<Faults> = Object.freeze({
  latencyMs: 0,
  errorRate: 0,
  rateLimit: null,
  malformed: false,
  hang: false,
  paths: null,
});

export class FaultsError extends RangeError {
  override readonly name = 'FaultsError';
}

const KNOWN_KEYS = new Set(Object.keys(NO_FAULTS));

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates a full or partial setting (from JSON or from code); missing fields are off. */
function isPathList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((p) => typeof p === 'string' && p.startsWith('/'));
}

export function parseFaults(input: unknown): Faults {
  if (!isRecord(input)) throw new FaultsError('faults must be an object');
  for (const key of Object.keys(input)) if (!KNOWN_KEYS.has(key)) throw new FaultsError(`unknown fault "${key}"`);
  const { latencyMs = 0, errorRate = 0, rateLimit = null, malformed = false, hang = false, paths = null } = input;
  if (typeof latencyMs !== 'number' || !Number.isFinite(latencyMs) || latencyMs < 0 || latencyMs > 600_000)
    throw new FaultsError('latencyMs must be a number of ms from 0 to 600000');
  if (typeof errorRate !== 'number' || !(errorRate >= 0 && errorRate <= 1)) throw new FaultsError('errorRate must be a number from 0 to 1');
  let limit: Faults['rateLimit'] = null;
  if (rateLimit !== null) {
    const retryAfter = isRecord(rateLimit) ? rateLimit['retryAfter'] : undefined;
    if (typeof retryAfter !== 'number' || !Number.isInteger(retryAfter) || retryAfter < 0)
      throw new FaultsError('rateLimit must be null or { retryAfter: whole seconds >= 0 }');
    limit = { retryAfter };
  }
  if (typeof malformed !== 'boolean') throw new FaultsError('malformed must be a boolean');
  if (typeof hang !== 'boolean') throw new FaultsError('hang must be a boolean');
  if (paths !== null && !isPathList(paths)) throw new FaultsError('paths must be null or a list of path prefixes starting with "/"');
  return { latencyMs, errorRate, rateLimit: limit, malformed, hang, paths: paths === null ? null : [...paths] };
}

export function faultsApplyTo(faults: Faults, path: string): boolean {
  return faults.paths === null || faults.paths.some((prefix) => path.startsWith(prefix));
}

// Wrong-shape bodies per route: fields of the wrong type, then required fields missing.
const WRONG_TYPES: Readonly<Record<string, unknown>> = {
  '/v1/trending/tokens': { generated_at: 12, tokens: 'oops' },
  '/v1/trending/contracts': { generated_at: 12, contracts: 'oops' },
  '/v1/posts': { posts: 'oops', next_cursor: 42 },
  '/v1/accounts/:username': { username: 42, score: 'high', top_tokens: 'SOL' },
};
const MISSING_FIELDS: Readonly<Record<string, unknown>> = {
  '/v1/trending/tokens': { tokens: [] },
  '/v1/trending/contracts': { contracts: [] },
  '/v1/posts': { posts: [] },
  '/v1/accounts/:username': {},
};

/**
 * The n-th malformed body for a route, rotating through three kinds so a client meets each:
 * the real body cut in half (invalid JSON), valid JSON with wrong types, valid JSON missing
 * required fields.
 */
export function malformedBody(template: string, realBody: string, n: number): string {
  switch (n % 3) {
    case 0:
      return realBody.slice(0, Math.max(1, Math.floor(realBody.length / 2)));
    case 1:
      return JSON.stringify(WRONG_TYPES[template] ?? { oops: true });
    default:
      return JSON.stringify(MISSING_FIELDS[template] ?? {});
  }
}
