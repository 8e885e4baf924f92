import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { scorePolarity } from '../../../apps/worker/src/sentiment/score.js';
import { cryptoSet, repoRoot } from './fixtures.js';

/** Runs the CLI as users do, feeding `input` on stdin; resolves with stdout. */
function runCli(input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'scripts/sentiment.ts'], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`exit ${code}`))));
    child.stdin.end(input);
  });
}

describe('sentiment CLI', () => {
  it('when lines arrive on stdin, then it prints one 4-decimal polarity per line in order', async () => {
    // Enough lines to span many stdin chunks; blank lines still get a line of output.
    const base = [...cryptoSet('crypto-dev').map((item) => item.text), ''];
    const lines = Array.from({ length: 4000 }, (_, i) => base[(i * 7) % base.length] ?? '');
    const out = await runCli(`${lines.join('\n')}\n`);
    expect(out.split('\n')).to.deep.equal([...lines.map((line) => scorePolarity(line).toFixed(4)), '']);
  });

  it('when input has CRLF endings and no final newline, then every line is still scored', async () => {
    const out = await runCli('BTC to the moon\r\ngot rugged\r\nlast line');
    expect(out).to.equal(['BTC to the moon', 'got rugged', 'last line'].map((line) => `${scorePolarity(line).toFixed(4)}\n`).join(''));
  });
});
