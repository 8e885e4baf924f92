import { expect } from 'chai';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../apps/index-sim/src/main.ts', import.meta.url));

function startCli(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves with the first stdout line; keeps reading after it so the pipe stays open. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0] ?? '');
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing`)));
  });
}

describe('index simulator: npm run sim', () => {
  it('when started with SIM_* variables, then it prints its URL, serves, and exits 0 on SIGTERM', async () => {
    const child = startCli({ SIM_PORT: '0', SIM_SEED: '5', SIM_POSTS: '200', SIM_API_KEY: 'k' });
    try {
      const line = await firstLine(child);
      const url = /(http:\/\/\S+)/.exec(line)?.[1];
      expect(url, line).to.be.a('string');
      const res = await fetch(`${url}/v1/posts?limit=500`, { headers: { 'x-api-key': 'k' } });
      const body = (await res.json()) as { posts: unknown[] };
      expect(body.posts).to.have.length(200);
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).to.equal(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('when a variable is invalid, then it exits 1 naming the variable', async () => {
    const child = startCli({ SIM_PORT: 'abc' });
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).to.equal(1);
    expect(err).to.include('SIM_PORT');
  });
});
