/** The URL redaction used before logging configured URLs, and the worker's start-up line that uses it. */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { redactUrl } from '../../shared/redact-url.js';
import { ROOT } from '../api/auth/helpers.js';
import { sharedTestRedis } from '../support/redis-server.js';

describe('redactUrl', () => {
  const cases: [string, string][] = [
    ['https://user:s3cret@index.example.com/v1', 'https://***:***@index.example.com/v1'],
    ['https://only-a-key@index.example.com', 'https://***@index.example.com/'],
    ['https://index.example.com/v1?api_key=abc123&region=eu', 'https://index.example.com/v1?api_key=***&region=eu'],
    ['https://index.example.com/?X-Api-Key=abc&Token=t&sig=s', 'https://index.example.com/?X-Api-Key=***&Token=***&sig=***'],
    ['redis://:pw@redis.example.com:6380/0', 'redis://:***@redis.example.com:6380/0'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/'],
  ];
  for (const [raw, logged] of cases) {
    it(`when given ${raw}, then ${logged}`, () => {
      expect(redactUrl(raw)).to.equal(logged);
    });
  }

  it('when the value is not a URL, then it is not echoed at all', () => {
    expect(redactUrl('sk-live-not-a-url')).to.equal('[unparseable URL]');
  });
});

describe('the worker process, started with credentials in INDEX_API_URL', function () {
  this.timeout(30_000);

  it('when it logs its start, then neither the user name nor the password appears in its output', async () => {
    const redis = await sharedTestRedis();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      REDIS_URL: redis.url,
      INDEX_API_URL: 'http://index-user:index-s3cret@127.0.0.1:9/v1',
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/worker/src/main.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const started = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start line; output: ${output}`)), 15_000);
      const collect = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('worker started')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
    });
    try {
      await started;
      // A graceful stop: the worker closes and pino flushes every line, the failed refreshes' included.
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
    }
    const line = output.split('\n').find((l) => l.includes('worker started')) ?? '';
    expect(line).to.include('127.0.0.1:9');
    expect(output).not.to.include('index-s3cret');
    expect(output).not.to.include('index-user');
  });
});
