/**
 * Issue 38 item 2's figure: what a `Last-Event-ID: 1` resume is sent after `refreshes` refreshes of
 * history (bytes and events, per topic), against a stack of its own. The history is the stack's
 * own first refresh of each topic copied back in time, 30 minutes apart, so each event has the
 * size a real one has.
 *
 *   npx tsx dev/stream-resume.ts [refreshes=1440] [KEY=value ...]
 *   (STREAM_RESUME_MAX_EVENTS=100000 for the replay of the whole retention, as before the bound)
 */
import { request } from 'node:http';
import { SNAPSHOTS } from '../shared/snapshot-kinds.js';
import { historyKeys } from '../shared/snapshot-keys.js';
import { startInProcessStack } from './inprocess-stack.js';

const [refreshesArg, ...settings] = process.argv.slice(2);
const refreshes = Number(refreshesArg ?? 1440);
const env = Object.fromEntries(settings.map((setting) => setting.split('=', 2) as [string, string]));
const stack = await startInProcessStack(env);

// Wait for the first refresh of each list and of news, then give every events stream `refreshes` entries.
const topics = SNAPSHOTS.filter((topic) => ['trending', 'trending-cas', 'news', 'sentiment', 'mindshare'].includes(topic));
for (;;) {
  const lengths = await Promise.all(topics.map((topic) => stack.redis.xlen(historyKeys.events(topic))));
  if (lengths.every((n) => n > 0)) break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}
for (const topic of topics) {
  const key = historyKeys.events(topic);
  const [[id, fields]] = (await stack.redis.xrevrange(key, '+', '-', 'COUNT', 1)) as [[string, string[]]];
  const lastMs = Number(id.split('-')[0]);
  const batch = stack.redis.pipeline().del(key);
  for (let back = refreshes - 1; back >= 1; back -= 1) batch.xadd(key, `${lastMs - back * 30 * 60_000}-0`, ...fields);
  await batch.xadd(key, id, ...fields).exec();
}

const started = performance.now();
let lastByteAt = started;
const sent = await new Promise<{ bytes: number; events: Record<string, number> }>((resolve, reject) => {
  const chunks: Buffer[] = [];
  let idle: NodeJS.Timeout | undefined;
  const req = request(`${stack.api}/api/market/stream`, { headers: { 'Last-Event-ID': '1' } }, (res) => {
    res.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      lastByteAt = performance.now();
      // Done once nothing came for a second (the replay is written as fast as it is read).
      clearTimeout(idle);
      idle = setTimeout(() => {
        req.destroy();
        const text = Buffer.concat(chunks).toString();
        const events: Record<string, number> = {};
        for (const [, topic] of text.matchAll(/^event: (.+)$/gm)) events[topic!] = (events[topic!] ?? 0) + 1;
        resolve({ bytes: Buffer.byteLength(text), events });
      }, 1000);
    });
  });
  req.on('error', reject);
  req.end();
});
const seconds = (lastByteAt - started) / 1000;
console.log(
  JSON.stringify(
    {
      refreshes,
      settings: env,
      events: Object.values(sent.events).reduce((a, b) => a + b, 0),
      perTopic: sent.events,
      bytes: sent.bytes,
      KiB: Math.round(sent.bytes / 1024),
      // Until the last byte.
      seconds: Math.round(seconds * 100) / 100,
    },
    null,
    2,
  ),
);
await stack.close();
