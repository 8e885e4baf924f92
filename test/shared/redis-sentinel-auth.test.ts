/**
 * Issue 28 item 7: Sentinel mode authenticates to the data nodes (REDIS_USERNAME,
 * REDIS_PASSWORD) and speaks TLS to them (REDIS_TLS), against a real master and a real sentinel
 * (`redis-server --sentinel`): a TLS-only master with an ACL user and no default user.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { loadConfig } from '../../shared/config.js';
import { createRedis } from '../../shared/redis.js';
import { freePort, waitForPing } from '../support/redis-server.js';
import { eventually } from '../support/eventually.js';

const MASTER = 'authmaster';

describe('Redis Sentinel with an authenticated, TLS-only master', function () {
  this.timeout(30_000);
  let dir: string;
  const children: ChildProcess[] = [];
  let sentinelPort: number;
  const clients: Redis[] = [];
  const connect = (env: Record<string, string>) => {
    const reasons: string[] = [];
    const client = createRedis(
      loadConfig({ REDIS_SENTINELS: `127.0.0.1:${sentinelPort}`, REDIS_SENTINEL_MASTER: MASTER, ...env }),
      'fast',
      'sentinel-auth-test',
      {
        warn: (fields: object) => reasons.push(String((fields as { reason?: string }).reason)),
        info() {},
      },
    );
    clients.push(client);
    return { client, reasons };
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ms-sentinel-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const tls = [
      `tls-cert-file ${join(dir, 'cert.pem')}`,
      `tls-key-file ${join(dir, 'key.pem')}`,
      `tls-ca-cert-file ${join(dir, 'cert.pem')}`,
      'tls-auth-clients no',
    ];
    const masterPort = await freePort();
    sentinelPort = await freePort();
    writeFileSync(
      join(dir, 'master.conf'),
      [
        'port 0',
        `tls-port ${masterPort}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        'save ""',
        'appendonly no',
        ...tls,
        'user default off',
        'user app on >node-secret ~* &* +@all',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'sentinel.conf'),
      [
        `port ${sentinelPort}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        'tls-replication yes',
        ...tls,
        `sentinel monitor ${MASTER} 127.0.0.1 ${masterPort} 1`,
        `sentinel auth-user ${MASTER} app`,
        `sentinel auth-pass ${MASTER} node-secret`,
        '',
      ].join('\n'),
    );
    children.push(spawn('redis-server', [join(dir, 'master.conf')], { stdio: 'ignore' }));
    children.push(spawn('redis-server', [join(dir, 'sentinel.conf'), '--sentinel'], { stdio: 'ignore' }));
    await waitForPing(sentinelPort);
    // Ready once the sentinel has reached the master over TLS with the ACL user (it knows its run id).
    const sentinel = new Redis({ port: sentinelPort, host: '127.0.0.1' });
    await eventually(
      async () => {
        const fields = (await sentinel.call('SENTINEL', 'MASTER', MASTER)) as string[];
        return fields[fields.indexOf('runid') + 1] ? true : undefined;
      },
      10_000,
      'the sentinel to reach the master',
    );
    sentinel.disconnect();
  });
  after(() => {
    for (const client of clients) client.disconnect();
    for (const child of children) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('when REDIS_USERNAME, REDIS_PASSWORD and REDIS_TLS are set, then the API role reads and writes on the master Sentinel names', async () => {
    const { client } = connect({ REDIS_USERNAME: 'app', REDIS_PASSWORD: 'node-secret', REDIS_TLS: 'true', REDIS_TLS_INSECURE: 'true' });
    await eventually(
      async () => ((await client.set('probe', 'written').catch(() => undefined)) === 'OK' ? true : undefined),
      10_000,
      'a write through Sentinel',
    );
    expect(await client.get('probe')).to.equal('written');
    expect(await client.call('ACL', 'WHOAMI')).to.equal('app');
  });

  it('when the password is missing, then nothing is written and the logged reason says why', async () => {
    const { client, reasons } = connect({ REDIS_USERNAME: 'app', REDIS_TLS: 'true', REDIS_TLS_INSECURE: 'true' });
    await eventually(
      () => (reasons.some((reason) => /NOAUTH|WRONGPASS|NOPERM/.test(reason)) ? true : undefined),
      10_000,
      'an authentication error',
    );
    await client.set('probe', 'nope').then(
      () => expect.fail('written without a password'),
      (error: Error) => expect(error.message).to.be.a('string'),
    );
  });

  it('when TLS is not asked for, then the master is not reached', async () => {
    const { client, reasons } = connect({ REDIS_USERNAME: 'app', REDIS_PASSWORD: 'node-secret' });
    await eventually(() => (reasons.length > 0 ? true : undefined), 10_000, 'a connection error');
    await client.get('probe').then(
      () => expect.fail('answered without TLS'),
      (error: Error) => expect(error.message).to.be.a('string'),
    );
  });
});
