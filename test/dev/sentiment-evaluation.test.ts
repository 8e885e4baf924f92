import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluate, isLabelledLine, parseLabelledPosts } from '../../dev/sentiment-evaluation.js';
import { repoRoot } from '../worker/sentiment/fixtures.js';

describe('evaluating a scorer on labelled posts', () => {
  it('when posts are tagged pos/neg by their authors, then they parse as positive/negative', () => {
    expect(parseLabelledPosts('pos\t$BTC up only\nneg\tdumping\n').map((post) => post.expected)).to.deep.equal(['positive', 'negative']);
    expect(isLabelledLine('bullish\tmoon')).to.equal(true);
    expect(isLabelledLine('12\t2.5\tlovely day')).to.equal(false);
  });

  it('when a scorer answers, then the confusion table, accuracy and neutral share count each post once', () => {
    const posts = parseLabelledPosts('pos\ta\npos\tb\nneg\tc\nneg\td\n');
    const scores: Record<string, number> = { a: 0.5, b: 0, c: 0.3, d: -0.9 };
    const result = evaluate(posts, (text) => scores[text] ?? 0, false);
    expect(result.confusion.positive).to.deep.equal({ negative: 0, neutral: 1, positive: 1 });
    expect(result.confusion.negative).to.deep.equal({ negative: 1, neutral: 0, positive: 1 });
    expect(result.accuracy).to.equal(0.5);
    expect(result.neutralShare).to.equal(0.25);
  });

  it('when npm run sentiment:eval is given a file, then it prints ours and plain VADER with their confusion tables', function () {
    this.timeout(60_000);
    const dir = mkdtempSync(join(tmpdir(), 'sentiment-eval-'));
    try {
      const file = join(dir, 'posts.tsv');
      writeFileSync(file, 'pos\t$SOL to the moon, wagmi\nneg\t$SOL got rugged, total scam\npos\t$BTC.X loading more here\n');
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'dev/eval-sentiment.ts', file], { cwd: repoRoot, encoding: 'utf8' });
      expect(run.status, run.stderr).to.equal(0);
      expect(run.stdout).to.match(/^market-signals\s+-\s+\d\.\d{4}\s+\d\.\d{4}$/m);
      expect(run.stdout).to.match(/^plain vader\s+-\s+\d\.\d{4}\s+\d\.\d{4}$/m);
      expect(run.stdout.match(/rows expected, columns scored/g)).to.have.length(2);
      expect(run.stdout).to.match(/^ {2}positive\s+\d+\s+\d+\s+\d+$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
