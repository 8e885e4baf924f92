/**
 * The exact responses the API gave for each measured read, captured by the orchestrator and
 * handed to the ceiling servers, so (a) and (b) serve byte-identical bodies.
 */
import { readFileSync } from 'node:fs';

export interface CapturedBody {
  /** Path and query as requested, e.g. `/api/market/news?page=1&limit=50`. */
  url: string;
  etag: string;
  /** Base64 of the identity-encoded body. */
  body: string;
}

export interface ServedBody {
  etag: string;
  body: Buffer;
}

export function loadBodies(file: string): Map<string, ServedBody> {
  const captured = JSON.parse(readFileSync(file, 'utf8')) as CapturedBody[];
  return new Map(captured.map(({ url, etag, body }) => [url, { etag, body: Buffer.from(body, 'base64') }]));
}

/** argv[2] of every target: JSON `{ port, bodiesFile?, redisUrl? }`. */
export interface TargetArgs {
  port: number;
  bodiesFile: string;
  redisUrl: string;
}

export function targetArgs(): TargetArgs {
  return JSON.parse(process.argv[2] ?? '{}') as TargetArgs;
}
