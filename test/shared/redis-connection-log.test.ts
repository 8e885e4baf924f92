/**
 * Connection errors are logged, not swallowed: once when the connection fails (with Redis's or
 * the socket's reason and no secret), once more only if the reason changes, and once when it is
 * back, however many reconnect attempts fail in between.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { createRedis, type RedisLogger } from '../../shared/redis.js';
import { startTestRedis, type TestRedis } from '../support/redis-server.js';
import { eventually } from '../support/stack.js';

interface Line {
  level: 'warn' | 'info';
  fields: Record<string, unknown>;
  message: string;
}

function recordingLogger(lines: Line[]): RedisLogger {
  const record = (level: Line['level']) => (fields: Record<string, unknown>, message: string) => lines.push({ level, fields, message });
  return { warn: record('warn'), info: record('info') } as unknown as RedisLogger;
}

describe('Redis connection errors', () => {
  let server: TestRedis;
  let admin: Redis;
  let client: Redis | undefined;

  before(async () => {
    server = await startTestRedis();
    admin = new Redis(server.url, { protocol: 2 });
    admin.on('error', () => {}); // the second test stops the server under it
    await admin.call('ACL', 'SETUSER', 'app', 'on', '>right-password', '~*', '&*', '+@all');
  });
  afterEach(() => client?.disconnect());
  after(async () => {
    admin.disconnect();
    await server.stop();
  });

  it('when the password is wrong, then one warning gives the reason without the password, and recovery is logged', async () => {
    const lines: Line[] = [];
    const url = `redis://app:wrong-secret@127.0.0.1:${server.port}`;
    client = createRedis({ redisUrl: url, redisTlsInsecure: false }, 'worker', 'test-client', recordingLogger(lines));
    let errors = 0;
    client.on('error', () => errors++);
    // Several failed attempts, the quiet period that shows they log nothing more.
    await eventually(() => (errors >= 3 ? true : undefined), 10_000, 'three failed connection attempts');
    expect(lines.map((line) => [line.level, line.message])).to.deep.equal([['warn', 'redis connection error']]);
    expect(lines[0]!.fields).to.include({ redis: 'test-client' });
    expect(String(lines[0]!.fields.reason)).to.match(/WRONGPASS/);
    expect(JSON.stringify(lines)).not.to.include('wrong-secret');

    await admin.call('ACL', 'SETUSER', 'app', '>wrong-secret');
    await eventually(() => (lines.length === 2 ? true : undefined), 10_000, 'the recovery line');
    expect(lines[1]).to.deep.include({ level: 'info', message: 'redis connection restored' });
  });

  it('when Redis goes away, then one warning names the reason; when it is back, one line says so', async () => {
    const lines: Line[] = [];
    client = createRedis({ redisUrl: server.url, redisTlsInsecure: false }, 'worker', 'test-outage', recordingLogger(lines));
    await client.ping();
    let errors = 0;
    client.on('error', () => errors++);
    await server.stop();
    await eventually(() => (errors >= 3 ? true : undefined), 10_000, 'three failed reconnects');
    expect(lines.map((line) => line.level)).to.deep.equal(['warn']);
    expect(String(lines[0]!.fields.reason)).to.match(/ECONNREFUSED/);
    await server.start();
    await eventually(() => (lines.length === 2 ? true : undefined), 10_000, 'the recovery line');
    expect(lines[1]).to.deep.include({ level: 'info', message: 'redis connection restored' });
  });
});
