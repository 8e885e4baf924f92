/**
 * Seeds the demo user of `npm start` (docs/decisions.md#d10, demo mode only): demo@example.com / demo-password,
 * role user, added or reset on every start. The demo password is fixed by docs/decisions.md#d10, so it skips
 * the users command's 12-character minimum.
 */
import { hashPassword } from '../apps/api/src/auth/passwords.js';
import { UserStore } from '../apps/api/src/auth/users.js';
import { createRedis } from '../shared/redis.js';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'demo-password';

export async function seedDemoUser(redisUrl: string): Promise<void> {
  const redis = createRedis({ redisUrl, redisTlsInsecure: false }, 'worker', 'demo-seed');
  try {
    // The launcher has just spawned redis-server: give it a few seconds to accept connections.
    const deadline = Date.now() + 10_000;
    while ((await redis.ping().catch(() => null)) !== 'PONG') {
      if (Date.now() > deadline) throw new Error('Redis did not answer; the demo user was not created');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    await new UserStore(redis).createOrReplace({ email: DEMO_EMAIL, role: 'user', passwordHash });
    process.stdout.write(`[demo] demo user: ${DEMO_EMAIL} / ${DEMO_PASSWORD}\n`);
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}
