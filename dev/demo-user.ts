/**
 * Seeds the demo user of `npm start` (docs/decisions.md#d10, demo mode only): demo@example.com / demo-password,
 * role user, added or reset on every start. The demo password is fixed by docs/decisions.md#d10, so it skips
 * the users command's 12-character minimum.
 */
import { ApiKeyStore } from '../apps/api/src/auth/api-keys.js';
import { hashPassword } from '../apps/api/src/auth/passwords.js';
import { UserStore } from '../apps/api/src/auth/users.js';
import { createRedis } from '../shared/redis.js';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'demo-password';

/** Seeds the user and returns an API key of theirs for a day: the alert commands `npm start` prints use it. */
export async function seedDemoUser(redisUrl: string): Promise<string> {
  const redis = createRedis({ redisUrl, redisTlsInsecure: false }, 'worker', 'demo-seed');
  try {
    // The launcher has just spawned redis-server: give it a few seconds to accept connections.
    const deadline = Date.now() + 10_000;
    while ((await redis.ping().catch(() => null)) !== 'PONG') {
      if (Date.now() > deadline) throw new Error('Redis did not answer; the demo user was not created');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const users = new UserStore(redis);
    await users.createOrReplace({ email: DEMO_EMAIL, role: 'user', passwordHash });
    process.stdout.write(`[demo] demo user: ${DEMO_EMAIL} / ${DEMO_PASSWORD}\n`);
    const created = await new ApiKeyStore(redis).create(users, DEMO_EMAIL, 'npm start', 86_400_000);
    if (!created) throw new Error('the demo user vanished before its API key was made');
    return created.key;
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}
