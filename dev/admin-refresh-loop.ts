/**
 * Issue 38 item 1's loop, reproducible: a whole stack in this process (a private redis-server,
 * the index simulator, one worker, the API on a loopback port), an admin token, then five
 * `POST /api/admin/refresh` every half second for 20 s. Prints the upstream calls each list
 * made in those 20 s (the simulator's count per route) and the answers' statuses.
 *
 *   npx tsx dev/admin-refresh-loop.ts [seconds=20]
 */
import { hashPassword } from '../apps/api/src/auth/passwords.js';
import { UserStore } from '../apps/api/src/auth/users.js';
import { startInProcessStack } from './inprocess-stack.js';

const seconds = Number(process.argv[2] ?? 20);
const stack = await startInProcessStack();
const { api, sim, redis } = stack;
await new UserStore(redis).createOrReplace({
  email: 'admin@example.com',
  role: 'admin',
  passwordHash: await hashPassword('admin password 1'),
});
const login = await fetch(`${api}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'admin@example.com', password: 'admin password 1' }),
});
const { token } = (await login.json()) as { token: string };

// The schedule's first runs first: then every call counted is one the loop caused.
await new Promise((resolve) => setTimeout(resolve, 2_000));
sim.resetStats();

const statuses: Record<string, number> = {};
const deadline = Date.now() + seconds * 1000;
while (Date.now() < deadline) {
  const asks = Array.from({ length: 5 }, () =>
    fetch(`${api}/api/admin/refresh`, { method: 'POST', headers: { authorization: `Bearer ${token}` } }).then(async (res) => {
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }),
  );
  await Promise.all([...asks, new Promise((resolve) => setTimeout(resolve, 500))]);
}
// Let the runs the last asks started finish before counting.
await new Promise((resolve) => setTimeout(resolve, 3_000));
const calls = Object.fromEntries(Object.entries(sim.stats()).filter(([, count]) => count > 0));
console.log(JSON.stringify({ seconds, answers: statuses, upstreamCallsPerRoute: calls }, null, 2));

await stack.close();
