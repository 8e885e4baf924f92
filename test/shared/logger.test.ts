import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { lineBatcher } from '../../shared/logger.js';

type Destination = Parameters<typeof lineBatcher>[0];

describe('log lines (shared/logger.ts)', () => {
  it('when several lines are logged in one turn, then the destination gets them as one write, in order', async () => {
    const writes: string[] = [];
    const batcher = lineBatcher({ write: (data: string) => writes.push(data) } as unknown as Destination);
    batcher.write('a\n');
    batcher.write('b\n');
    batcher.write('c\n');
    expect(writes).to.deep.equal([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).to.deep.equal(['a\nb\nc\n']);
    batcher.write('d\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).to.deep.equal(['a\nb\nc\n', 'd\n']);
  });

  it('when the process exits right after logging, then no line is lost', () => {
    const script = [
      "import { createLogger } from './shared/logger.ts';",
      "const logger = createLogger({ logLevel: 'info' }, 'exit-test');",
      'for (let i = 0; i < 100; i += 1) logger.info({ i }, "line");',
      'process.exit(0);',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const lines = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { i: number; name: string });
    expect(lines.map((line) => line.i)).to.deep.equal(Array.from({ length: 100 }, (_, i) => i));
    expect(lines[0]?.name).to.equal('exit-test');
  });
});
