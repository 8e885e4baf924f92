/**
 * Issue 38 item 5's figure: a flood of logins with random plausible emails from `clients`
 * connections of one address (127.0.0.2, bound on loopback; TRUST_PROXY off), in a process of
 * its own, while a real user logs in `logins` times in a row from 127.0.0.1, against a stack of
 * its own. Prints the real user's failure share and latencies, and what the flood was answered.
 *
 *   npx tsx dev/login-flood.ts [clients=48] [logins=50] [KEY=value ...]
 *   (LOGIN_MAX_IN_FLIGHT_PER_ADDRESS=1000000 for the flood without the cap)
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { hashPassword } from '../apps/api/src/auth/passwords.js';
import { UserStore } from '../apps/api/src/auth/users.js';
import { startInProcessStack } from './inprocess-stack.js';
import { quantile } from './numbers.js';

function login(url: string, agent: Agent | undefined, email: string, password: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/auth/login`, { method: 'POST', agent, headers: { 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ email, password }));
  });
}

if (process.argv[2] === '--flood') {
  // The child: flood until told to stop, then report the statuses.
  const [, , , url, clientsArg] = process.argv;
  const agent = new Agent({ keepAlive: true, maxSockets: Number(clientsArg), localAddress: '127.0.0.2' });
  const statuses: Record<number, number> = {};
  let flooding = true;
  process.once('message', () => (flooding = false));
  await Promise.all(
    Array.from({ length: Number(clientsArg) }, async () => {
      while (flooding) {
        const status = await login(url!, agent, `${randomUUID().slice(0, 12)}@example.com`, 'a-guessed-password');
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  process.send!(statuses);
  agent.destroy();
  process.exit(0);
}

const [clientsArg, loginsArg, ...settings] = process.argv.slice(2);
const clients = Number(clientsArg ?? 48);
const logins = Number(loginsArg ?? 50);
const env = Object.fromEntries(settings.map((setting) => setting.split('=', 2) as [string, string]));
const stack = await startInProcessStack(env);
await new UserStore(stack.redis).createOrReplace({
  email: 'real@example.com',
  role: 'user',
  passwordHash: await hashPassword('the-real-password-1'),
});

const flood = fork(new URL(import.meta.url).pathname, ['--flood', stack.api, String(clients)]);
const floodStatuses = new Promise<Record<number, number>>((resolve) => flood.once('message', resolve));
await new Promise((resolve) => setTimeout(resolve, 2000));
const answers: Record<number, number> = {};
const latencies: number[] = [];
const started = Date.now();
for (let i = 0; i < logins; i += 1) {
  const sent = performance.now();
  const status = await login(stack.api, undefined, 'real@example.com', 'the-real-password-1');
  latencies.push(performance.now() - sent);
  answers[status] = (answers[status] ?? 0) + 1;
}
const seconds = (Date.now() - started) / 1000;
flood.send('stop');
const floodAnswers = await floodStatuses;
const ms = (q: number) => Math.round(quantile(latencies, q));
console.log(
  JSON.stringify(
    {
      clients,
      logins,
      settings: env,
      realUser: { answers, failedShare: 1 - (answers[200] ?? 0) / logins, msP50: ms(0.5), msP95: ms(0.95), seconds },
      flood: floodAnswers,
    },
    null,
    2,
  ),
);
await stack.close();
