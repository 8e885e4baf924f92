/**
 * N simultaneous requests for one URL, each on a connection opened beforehand (so the burst
 * measures the API's answer, not 200 TCP handshakes). Prints one JSON line: every status and
 * every completion time, in ms from the moment the burst was fired.
 *
 * argv[2]: JSON `{ url, warmUrl, count }`.
 */
import { Agent, request } from 'node:http';
import type { BurstResult } from '../lib/types.js';

const { url, warmUrl, count } = JSON.parse(process.argv[2] ?? '{}') as { url: string; warmUrl: string; count: number };
const agent = new Agent({ keepAlive: true, maxSockets: count, maxFreeSockets: count });

function get(target: string, started: number): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const req = request(target, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end();
  });
}

const warmStarted = performance.now();
await Promise.all(Array.from({ length: count }, () => get(warmUrl, warmStarted)));
const openSockets = Object.values(agent.freeSockets).reduce((sum, list) => sum + (list?.length ?? 0), 0);

const startedAtEpochMs = Date.now();
const started = performance.now();
const answers = await Promise.all(Array.from({ length: count }, () => get(url, started)));
agent.destroy();
const result: BurstResult = {
  openSockets,
  startedAtEpochMs,
  statuses: answers.map((a) => a.status),
  completionMs: answers.map((a) => a.ms).sort((x, y) => x - y),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
