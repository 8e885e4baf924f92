import { spawn } from 'node:child_process';
import { startStack } from './lib/stack.js';
import { freePort } from '../test/support/redis-server.js';
import { rssOf } from './lib/processes.js';
import { LoadGenerator } from './lib/load.js';
const stack = await startStack();
const load = await LoadGenerator.start('load');
for (const [label, args] of [['dist', ['/tmp/distcheck/apps/api/src/main.js']], ['tsx', ['--import', 'tsx', 'apps/api/src/main.ts']]] as const) {
  const port = await freePort();
  const child = spawn(process.execPath, [...args], { env: { ...process.env, NODE_ENV: 'production', REDIS_URL: stack.redis.url, INDEX_API_URL: stack.sim.url, JWT_SECRET: stack.jwtSecret, LOG_LEVEL: 'info', PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) { const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false); if (ok) break; await new Promise((r) => setTimeout(r, 100)); }
  console.log(label, 'idle after ready', (rssOf(child.pid!) / 1e6).toFixed(0));
  for (const path of ['/api/market/trending', '/api/market/news?page=1&limit=50', '/api/market/sentiment/BTC']) {
    await fetch(`http://127.0.0.1:${port}${path}`);
    console.log(label, 'after first', path, (rssOf(child.pid!) / 1e6).toFixed(0));
  }
  let max = 0; const t = setInterval(() => (max = Math.max(max, rssOf(child.pid!))), 100);
  const r = await load.run({ url: `http://127.0.0.1:${port}/api/market/news?page=1&limit=50`, connections: 20, durationSec: 4 });
  clearInterval(t);
  console.log(label, 'under load max', (max / 1e6).toFixed(0), r.rps.toFixed(0));
  child.kill('SIGTERM'); await new Promise((r) => child.on('exit', r));
}
await load.close(); await stack.close(); process.exit(0);
