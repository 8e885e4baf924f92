/** One plain request with node:http: no Accept-Encoding (fetch would add one), the body's raw bytes. */
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** GET that must answer `expected`; returns the response. */
export async function expectStatus(url: string, expected: number, headers: Record<string, string> = {}): Promise<RawResponse> {
  const response = await rawRequest(url, { headers });
  if (response.status !== expected) {
    throw new Error(`GET ${url}: expected ${expected}, got ${response.status} ${response.body.toString('utf8').slice(0, 200)}`);
  }
  return response;
}
