/**
 * Login: its latency (argon2id at OWASP's parameters) with one client and with four, market
 * reads' p99 with and without four clients logging in continuously (interleaved), and the
 * timing of the two failures that must look alike: unknown email and wrong password
 * (alternating, so each pair of attempts gives one ratio measured under the same load).
 */
import { Redis } from 'ioredis';
import { keys } from '../../shared/keyspace.js';
import { rawRequest } from '../lib/http.js';
import { assertClean, watchServer, type LoadGenerator } from '../lib/load.js';
import { roundLength, type Settings } from '../lib/settings.js';
import { BENCH_USER, type AppProcess, type Stack } from '../lib/stack.js';
import type { LoadResult, LoadSpec, ServerSide } from '../lib/types.js';

export interface LoginOutcome {
  /** Logins back to back from one client, one round per repetition. */
  alone1: LoadResult[];
  /** Four clients logging in continuously, nothing else. */
  alone4: LoadResult;
  /** Market trending reads, per repetition, without and with the four login clients. */
  readsWithout: LoadResult[];
  readsWith: LoadResult[];
  /** The four login clients while the reads ran. */
  loginsUnderReads: LoadResult[];
  /** The same comparison at a fixed offered rate (open loop, half the API's throughput without logins). */
  openLoop: { rate: number; without: LoadResult[]; with: LoadResult[] };
  /** CPU of the API, the load generators and the rest of the machine, per repetition. */
  cpuWithout: ServerSide[];
  cpuWith: ServerSide[];
  /** Sequential failed logins, ms each. */
  unknownEmailMs: number[];
  wrongPasswordMs: number[];
}

const LOGIN_PATH = '/api/auth/login';

function loginSpec(api: AppProcess, connections: number, password: string, length: { durationSec: number; amount?: number }): LoadSpec {
  return {
    url: `${api.url}${LOGIN_PATH}`,
    connections,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: BENCH_USER.email, password }),
    // argon2 on two saturated cores: a login is slow there, not lost.
    timeoutSec: 60,
    ...length,
  };
}

async function timedFailure(api: AppProcess, email: string, password: string): Promise<number> {
  const started = performance.now();
  const response = await rawRequest(`${api.url}${LOGIN_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const ms = performance.now() - started;
  if (response.status !== 401) throw new Error(`failed login for ${email}: expected 401, got ${response.status}`);
  return ms;
}

export async function measureLogin(
  stack: Stack,
  api: AppProcess,
  reads: LoadGenerator,
  logins: LoadGenerator,
  settings: Settings,
  log: (line: string) => void,
): Promise<LoginOutcome> {
  const run = async (generator: LoadGenerator, label: string, spec: LoadSpec, expected: number, background = false) => {
    const result = await Promise.race([api.proc.died, generator.run(spec)]);
    // Background logins may also be shed (503) when argon2's queue is full on busy cores: that is the API's overload answer.
    assertClean(label, result, background ? [expected, 503] : expected, background);
    return result;
  };
  // A count, not a duration: on busy cores one login can outlast a 2 s round.
  const logins1 = { durationSec: settings.durationSec, amount: settings.quick ? 3 : 15 };
  const logins4 = { durationSec: settings.durationSec, amount: settings.quick ? 8 : 40 };
  // The login clients only keep argon2 busy while reads run: a round with no login finished yet is fine.
  const during = { durationSec: settings.durationSec + 1 };

  // The first login starts the argon2 helper and makes the dummy hash: not part of any round.
  const first = await rawRequest(`${api.url}${LOGIN_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_USER),
  });
  if (first.status !== 200) throw new Error(`the bench user's login answered ${first.status}`);
  if (settings.warmupSec > 0)
    await run(logins, 'login warm-up', loginSpec(api, 1, BENCH_USER.password, { durationSec: 1, amount: 3 }), 200);
  const alone1: LoadResult[] = [];
  for (let rep = 0; rep < settings.reps; rep += 1) {
    const result = await run(logins, 'login, 1 client', loginSpec(api, 1, BENCH_USER.password, logins1), 200);
    alone1.push(result);
    log(
      `rep ${rep + 1}/${settings.reps} login, 1 client: p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${result.rps.toFixed(1)}/s`,
    );
  }
  const alone4 = await run(logins, 'login, 4 clients', loginSpec(api, 4, BENCH_USER.password, logins4), 200);
  log(`login, 4 clients: p50 ${alone4.p50.toFixed(1)} ms, p99 ${alone4.p99.toFixed(1)} ms, ${alone4.rps.toFixed(1)}/s`);

  const readSpec: LoadSpec = { url: `${api.url}/api/market/trending`, connections: settings.connections, ...roundLength(settings) };
  const readsWithout: LoadResult[] = [];
  const readsWith: LoadResult[] = [];
  const loginsUnderReads: LoadResult[] = [];
  const cpuWithout: ServerSide[] = [];
  const cpuWith: ServerSide[] = [];
  for (let rep = 0; rep < settings.reps; rep += 1) {
    const { value: without, server: quiet } = await watchServer(api.proc.pid, run(reads, 'market reads without logins', readSpec, 200), [
      reads,
      logins,
    ]);
    readsWithout.push(without);
    cpuWithout.push(quiet);
    // The login clients start first and stop after the reads, so every read shares the CPU with argon2.
    const loginsMeanwhile = run(logins, 'logins during reads', loginSpec(api, 4, BENCH_USER.password, during), 200, true);
    await new Promise((resolve) => setTimeout(resolve, settings.quick ? 100 : 500));
    const { value: withLogins, server: busy } = await watchServer(api.proc.pid, run(reads, 'market reads with logins', readSpec, 200), [
      reads,
      logins,
    ]);
    readsWith.push(withLogins);
    cpuWith.push(busy);
    loginsUnderReads.push(await loginsMeanwhile);
    log(
      `rep ${rep + 1}/${settings.reps} market p99 ${without.p99.toFixed(2)} ms without logins, ${withLogins.p99.toFixed(2)} ms with 4 clients logging in` +
        ` (${withLogins.rps.toFixed(0)} vs ${without.rps.toFixed(0)} req/s)`,
    );
  }

  // Pollers arrive at their own pace whatever the API's latency: the same comparison open loop.
  const rate = Math.max(100, Math.round((Math.min(...readsWithout.map((r) => r.rps)) * 0.5) / 100) * 100);
  const openLoop = { rate, without: [] as LoadResult[], with: [] as LoadResult[] };
  for (let rep = 0; rep < settings.reps; rep += 1) {
    const without = await run(reads, 'market reads at a fixed rate without logins', { ...readSpec, rate }, 200);
    openLoop.without.push(without);
    const loginsMeanwhile = run(logins, 'logins during reads', loginSpec(api, 4, BENCH_USER.password, during), 200, true);
    await new Promise((resolve) => setTimeout(resolve, settings.quick ? 100 : 500));
    const withLogins = await run(reads, 'market reads at a fixed rate with logins', { ...readSpec, rate }, 200);
    openLoop.with.push(withLogins);
    await loginsMeanwhile;
    log(
      `rep ${rep + 1}/${settings.reps} at ${rate} req/s offered: market p99 ${without.p99.toFixed(2)} ms without logins, ${withLogins.p99.toFixed(2)} ms with`,
    );
  }

  // Each failure counts toward the throttle (10 per email, 50 per address): forget them between
  // attempts, outside the timed request, so every attempt takes the full path.
  const redis = new Redis(stack.redis.url, { protocol: 2 });
  const forgetFailures = async () => {
    const failures = [...(await redis.keys(keys.loginFailuresByEmail('*'))), ...(await redis.keys(keys.loginFailuresByAddress('*')))];
    if (failures.length > 0) await redis.del(...failures);
  };
  const unknownEmailMs: number[] = [];
  const wrongPasswordMs: number[] = [];
  try {
    for (let i = 0; i < settings.timingSamples; i += 1) {
      await forgetFailures();
      unknownEmailMs.push(await timedFailure(api, `nobody-${i}-${Date.now()}@example.com`, BENCH_USER.password));
      await forgetFailures();
      wrongPasswordMs.push(await timedFailure(api, BENCH_USER.email, `wrong-${i}`));
    }
    await forgetFailures();
  } finally {
    redis.disconnect();
  }
  return { alone1, alone4, readsWithout, readsWith, loginsUnderReads, openLoop, cpuWithout, cpuWith, unknownEmailMs, wrongPasswordMs };
}
