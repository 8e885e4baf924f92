import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HACK_TEXTS, authors, chatter, event, HOUR, START } from '../worker/stories/planted-posts.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

function stories(...args: string[]) {
  return spawnSync('npx', ['tsx', 'scripts/stories.ts', ...args], { cwd: repoRoot, encoding: 'utf8' });
}

describe('npm run stories -- --posts <file.tsv> (the engine replayed over an archive)', () => {
  it('when an archive holds a planted burst, then one JSON line for its storyline, with the line numbers of its posts', () => {
    const posts = [...chatter(72), ...event('hack', authors('witness', 8), HACK_TEXTS, START + 66 * HOUR)];
    const lines = posts.map((post) => `${new Date(post.publishedMs).toISOString()}\t${post.author}\t${post.text}`);
    const file = join(mkdtempSync(join(tmpdir(), 'stories-')), 'posts.tsv');
    writeFileSync(file, ['created_at\tauthor\ttext', ...lines].join('\n') + '\n');
    const run = stories('--posts', file, '--interval', '30m', '--window', '24h');
    expect(run.status, run.stderr).to.equal(0);
    const out = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(out).to.have.length(1);
    const story = out[0] as { postIds: string[]; authors: number; title: string };
    expect(Object.keys(story)).to.deep.equal([
      'id',
      'title',
      'terms',
      'tokens',
      'firstSeenAt',
      'peakAt',
      'lastSeenAt',
      'posts',
      'authors',
      'postIds',
    ]);
    expect(story.postIds.map((id) => lines[Number(id) - 1]?.split('\t')[1])).to.satisfy((names: string[]) =>
      names.every((name) => name.startsWith('witness')),
    );
    expect(story.authors).to.be.at.least(6);
  });

  it('when the file lacks the header or a duration is bad, then one line naming it and exit 1', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'stories-')), 'bad.tsv');
    writeFileSync(file, 'time\twho\twhat\n');
    const headerless = stories('--posts', file);
    expect(headerless.status).to.equal(1);
    expect(headerless.stderr).to.match(/^stories: the first line must be the header created_at<TAB>author<TAB>text\n$/);
    const badInterval = stories('--posts', file, '--interval', 'soon');
    expect(badInterval.status).to.equal(1);
    expect(badInterval.stderr).to.match(/--interval must be a duration/);
  });
});
