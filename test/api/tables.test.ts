/**
 * Every entry of the tables gets what its entry promises, without a test of its own: each read of
 * apps/api/src/market/reads.ts answers on its route with the public CORS headers; each kind of
 * shared/snapshot-kinds.ts is a stream topic announced when its refresh runs. The table's other
 * promises are checked over every read where they are tested in depth: the fast path answers as
 * Koa would (test/api/market/fast-reads.test.ts), each tool answers its REST body
 * (test/api/mcp/mcp-tools.test.ts), the schedules (test/worker/schedules.test.ts), the OpenAPI
 * paths (test/api/docs.test.ts).
 */
import { expect } from 'chai';
import { MARKET_READS, READ_NAMES } from '../../apps/api/src/market/reads.js';
import type { ReadSpec } from '../../apps/api/src/market/read-spec.js';
import { REFRESH_JOBS, SNAPSHOTS } from '../../shared/snapshot-kinds.js';
import { http } from '../support/http.js';
import { pathOf } from '../support/read-paths.js';
import { pinnedJobs, type PinnedJobs } from '../support/pinned-jobs.js';
import { SseClient } from '../support/sse.js';
import { eventually, startStack, type Stack } from '../support/stack.js';

describe('the tables: every read and every kind gets its route and stream topic', function () {
  this.timeout(60_000);

  describe('each read of the table', () => {
    let stack: Stack;
    let examples: Record<string, string>;

    before(async () => {
      stack = await startStack();
      await eventually(async () => ((await http(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined), 30_000, 'ready');
      // A trending token that has sentiment, and a tracked account: every read's parameters have an answer.
      const trending = (await http(`${stack.apiUrl}/api/market/trending`)).json as { data: { token: string }[] };
      const withSentiment = await Promise.all(
        trending.data.map(async ({ token }) => ((await http(`${stack.apiUrl}/api/market/sentiment/${token}`)).status === 200 ? token : '')),
      );
      // A story the simulator planted (apps/index-sim/src/planted-stories.ts).
      const stories = (await http(`${stack.apiUrl}/api/market/stories?window=7d`)).json as { data: { id: string }[] };
      examples = {
        token: withSentiment.find(Boolean) ?? '',
        username: stack.sim.trackedUsernames()[0] ?? '',
        id: stories.data[0]?.id ?? '',
      };
      expect(examples.token, 'a trending token with sentiment').to.not.equal('');
    });
    after(async () => {
      await stack?.close();
    });

    it('answers 200 on its route with a body of its response schema and the public CORS headers', async () => {
      for (const name of READ_NAMES) {
        const read: ReadSpec = MARKET_READS[name];
        const res = await http(`${stack.apiUrl}${pathOf(read, examples)}`);
        expect(res.status, name).to.equal(200);
        expect(res.headers.get('access-control-allow-origin'), name).to.equal('*');
        expect(read.response.safeParse(res.json).success, `${name}: its response schema`).to.equal(true);
      }
    });
  });

  describe('each snapshot kind', () => {
    let stack: Stack;
    let jobs: PinnedJobs;

    before(async () => {
      // Every window configured, so each windowed kind of the table is a snapshot and a topic too.
      stack = await startStack({ workers: 0, env: { TRENDING_WINDOWS: '1h,4h,24h,7d,30d' } });
      jobs = pinnedJobs(stack.config, stack.sim.url);
    });
    after(async () => {
      await jobs?.close();
      await stack?.close();
    });

    it('is a topic of GET /api/market/stream: each refresh job of the table announces an event of each kind it rebuilds', async () => {
      const client = await SseClient.connect(`${stack.apiUrl}/api/market/stream`, {});
      try {
        expect(client.status).to.equal(200);
        await eventually(() => client.retry, 5000, 'the retry hint');
        let at = Date.now() - 3_600_000;
        for (const job of REFRESH_JOBS) await jobs.runJob(job, (at += 60_000));
        for (const kind of SNAPSHOTS) expect(await client.waitFor(1, kind), kind).to.have.length(1);
      } finally {
        client.close();
      }
    });
  });
});
