// `npm run sim`: the index simulator alone, for running the worker against it by hand.
// SIM_PORT (default 4010), SIM_SEED (42), SIM_POSTS (1000), SIM_API_KEY (optional).

import { startSimulator } from './server.js';

function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw) || value < min || value > max) {
    console.error(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    process.exit(1);
  }
  return value;
}

const port = intFromEnv('SIM_PORT', 4010, 0, 65_535);
const seed = intFromEnv('SIM_SEED', 42, -2_147_483_648, 2_147_483_647);
const postCount = intFromEnv('SIM_POSTS', 1000, 1, 1_000_000);
const apiKey = process.env['SIM_API_KEY'] || undefined;

const sim = await startSimulator({ port, seed, postCount, apiKey });
console.log(
  `index simulator listening on ${sim.url} (seed ${seed}, ${postCount} posts, ${apiKey ? 'X-Api-Key required' : 'no key required'})`,
);

let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping the index simulator`);
  await sim.close();
}
process.once('SIGINT', (signal) => void stop(signal));
process.once('SIGTERM', (signal) => void stop(signal));
