/**
 * A small fetch wrapper for the tests: status, headers, parsed JSON and raw bytes. Every
 * response of a route in /openapi.json is checked against the document: an undocumented
 * status, header or field fails the test that received it.
 */
import { assertDocumented } from './openapi-response.js';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
  json: unknown;
}

export async function http(url: string, init: RequestInit = {}): Promise<HttpAnswer> {
  const response = await fetch(url, init);
  const body = Buffer.from(await response.arrayBuffer());
  let json: unknown;
  try {
    json = body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
  } catch {
    json = undefined;
  }
  assertDocumented({ method: init.method ?? 'GET', url, status: response.status, headers: response.headers, body });
  return { status: response.status, headers: response.headers, body, json };
}

/** Like `http`, but with a raw Accept-Encoding and no automatic decompression. */
export async function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}
