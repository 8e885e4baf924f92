/**
 * The argon2 helper process: low CPU priority for every thread, restarted after a crash, and
 * gone with the API process (shut down or killed).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { Argon2Helper } from '../../../apps/api/src/auth/argon2-client.js';
import { HELPER_NICE } from '../../../apps/api/src/auth/argon2-helper.js';
import { ARGON2_OPTIONS } from '../../../apps/api/src/auth/passwords.js';
import { freePort, sharedTestRedis } from '../../support/redis-server.js';
import { eventually } from '../../support/stack.js';
import { ROOT } from './helpers.js';

/** Running (a zombie waiting for a reaper counts as gone). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

/** The nice value of every thread of a process (field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNiceValues(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

const childrenOf = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);

describe('the argon2 helper process', function () {
  this.timeout(30_000);
  const helper = new Argon2Helper();
  after(() => helper.stop());

  it('hashes and verifies like argon2 itself, and a digest it cannot read is a failed verification', async () => {
    const digest = await helper.hash('correct horse', ARGON2_OPTIONS);
    expect(digest).to.match(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await helper.verify(digest, 'correct horse')).to.equal(true);
    expect(await helper.verify(digest, 'wrong horse')).to.equal(false);
    expect(await helper.verify('not a digest', 'correct horse')).to.equal(false);
  });

  it(`runs every thread, argon2's thread pool included, at nice ${HELPER_NICE}`, async function () {
    if (process.platform !== 'linux') this.skip();
    const digest = await helper.hash('x', ARGON2_OPTIONS);
    // Four at once, so that libuv's pool has all its threads.
    await Promise.all([1, 2, 3, 4].map(() => helper.verify(digest, 'x')));
    const nice = threadNiceValues(helper.pid()!);
    expect(nice.length).to.be.above(4);
    expect(new Set(nice)).to.deep.equal(new Set([HELPER_NICE]));
    expect(threadNiceValues(process.pid)[0], 'the calling process keeps its priority').to.not.equal(HELPER_NICE);
  });

  it('when it dies, then calls in flight fail and the next call starts another', async () => {
    const first = helper.pid()!;
    const inFlight = helper.hash('in flight', ARGON2_OPTIONS);
    process.kill(first, 'SIGKILL');
    const failure = await inFlight.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(Error);
    const digest = await helper.hash('after the crash', ARGON2_OPTIONS);
    expect(await helper.verify(digest, 'after the crash')).to.equal(true);
    expect(helper.pid()).to.not.equal(first);
  });

  describe('with the API process', () => {
    let api: ChildProcess;

    async function startApi(): Promise<{ api: ChildProcess; helperPid: number }> {
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          PORT: String(port),
          REDIS_URL: (await sharedTestRedis()).url,
          LOG_LEVEL: 'silent',
          WEB_CONCURRENCY: '1',
        },
        stdio: 'ignore',
      });
      api = child;
      await eventually(async () => ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200 ? true : undefined), 20_000, 'API up');
      // The API makes its dummy digest at start, so its helper is already running.
      const helperPid = await eventually(() => childrenOf(child.pid!)[0], 10_000, 'the helper');
      return { api: child, helperPid };
    }
    afterEach(() => {
      if (api.exitCode === null && api.signalCode === null) api.kill('SIGKILL');
    });

    it('when the API shuts down (SIGTERM), then its helper is gone too', async () => {
      const { api, helperPid } = await startApi();
      const exited = new Promise((resolve) => api.once('exit', resolve));
      api.kill('SIGTERM');
      await exited;
      await eventually(() => (alive(helperPid) ? undefined : true), 5000, 'the helper to exit');
    });

    it('when the API is killed (SIGKILL), then its helper leaves by itself', async () => {
      const { api, helperPid } = await startApi();
      const exited = new Promise((resolve) => api.once('exit', resolve));
      api.kill('SIGKILL');
      await exited;
      await eventually(() => (alive(helperPid) ? undefined : true), 5000, 'the helper to exit');
    });
  });
});
