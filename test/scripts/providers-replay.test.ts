import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { replayFolder } from '../../scripts/providers-replay.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const captures = fileURLToPath(new URL('./provider-captures/', import.meta.url));

describe('npm run providers:replay -- <folder> (captured bodies through the adapters)', () => {
  it('when a folder of NAME.json + NAME.source.txt is replayed, then each body says what the adapters make of it, or why it was refused', () => {
    const byName = Object.fromEntries(replayFolder(captures).map((result) => [result.name, `${result.outcome}: ${result.text}`]));
    expect(byName).to.deep.equal({
      'coingecko/coins-markets.200':
        'read: coingecko /coins/markets 200: 2 coin(s): WIF dogwifhat 24h 6.7, JUP Jup Lookalike 24h none (0 in the list)',
      'coingecko/error-401-10002':
        "error answer: coingecko /coins/markets 401: HTTP 401 refused: the key or the app's access (API Key Missing. Please make sure you are using the right authentication method.)",
      'elfa/error-429':
        'error answer: elfa /v2/* 429: HTTP 429 rate limited, reset at 2026-11-27T00:00:30.000Z (epoch seconds): one more call if within 60 s (Rate limited)',
      'elfa/key-status.200.prepaid':
        'read: elfa /v2/key-status 200: no limit named (a prepaid key): REFRESH_INTERVAL or ELFA_DAILY_CREDITS sets the pace; remaining this month unknown; billing deposit',
      // (12 + 3 + 2 × 1) and 2, averaged; Elfa's whole match is 7.
      'elfa/keyword-mentions.200': 'read: elfa /v2/data/keyword-mentions 200: 7 post(s) in the window, average engagement 9.5',
      'elfa/keyword-mentions.200.sparse':
        'refused: elfa /v2/data/keyword-mentions 200: refused: elfa /v2/data/keyword-mentions: no list in the envelope',
      'elfa/smart-stats.404':
        'error answer: elfa /v2/account/smart-stats 404: HTTP 404: retired on 28 October 2026, never called (Cannot GET /v2/account/smart-stats)',
      'elfa/trending-tokens.200': 'read: elfa /v2/aggregations/trending-tokens 200: 2 token(s): WIF (88), JUP (41)',
      'stray-without-source': 'skipped: no .source.txt beside it',
      'x/users-tweets.200': 'read: x /2/users/501/tweets 200: 1 post(s): 1990000000000000010 engagement 44, 47 characters $WIF',
      'x/users-tweets.200.suspended': 'read: x /2/users/502/tweets 200: 0 post(s); 1 problem(s) skipped: User has been suspended: [502].',
    });
  });

  it('when run as the npm script, then one entry per body and a summary line; without a folder, usage and exit 2', () => {
    const run = spawnSync('npx', ['tsx', 'scripts/providers-replay.ts', captures], { cwd: repoRoot, encoding: 'utf8' });
    expect(run.status).to.equal(0);
    expect(run.stdout.trimEnd().split('\n').at(-1)).to.equal('11 bodies: 6 read, 3 error answers, 1 refused, 1 skipped');
    const bare = spawnSync('npx', ['tsx', 'scripts/providers-replay.ts'], { cwd: repoRoot, encoding: 'utf8' });
    expect(bare.status).to.equal(2);
    expect(bare.stderr).to.match(/^usage: npm run --silent providers:replay -- <folder/);
  });
});
