/**
 * The whole stack for the Python client's tests (clients/python/tests/conftest.py): the
 * simulator, a worker and the API on port 0 over the test Redis, a user and its password, loopback
 * webhooks allowed. Prints one JSON line (the API's URL, the Redis environment, the user) once
 * ready, then runs until its standard input closes (the test run ends) or SIGTERM.
 */
import { startStack, whenReady } from './stack.js';
import { ApiKeyStore } from '../../apps/api/src/auth/api-keys.js';
import { UserStore } from '../../apps/api/src/auth/users.js';
import { seedUser } from '../api/auth/helpers.js';

const EMAIL = 'quant@example.com';
const PASSWORD = 'correct-horse-battery';

const stack = await startStack({ env: { ALERTS_ALLOW_LOOPBACK: 'true' } });
await whenReady(stack);
await seedUser(stack, EMAIL, PASSWORD);
const created = await new ApiKeyStore(stack.redis).create(new UserStore(stack.redis), EMAIL, 'pytest');
const ready = { apiUrl: stack.apiUrl, redisEnv: stack.redisEnv, email: EMAIL, password: PASSWORD, apiKey: created?.key };
process.stdout.write(`${JSON.stringify(ready)}\n`);

let closing = false;
async function stop(): Promise<void> {
  if (closing) return;
  closing = true;
  await stack.close();
  process.exit(0);
}
process.stdin.on('end', () => void stop());
process.stdin.resume();
process.on('SIGTERM', () => void stop());
