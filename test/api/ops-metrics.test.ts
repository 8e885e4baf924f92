import { expect } from 'chai';
import { http } from '../support/http.js';
import { eventually, startStack, type Stack } from '../support/stack.js';

/** The sample value of `name{labels}` in a Prometheus text body, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics: what ops/ dashboards and alerts read', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ workers: 1 });
    await eventually(async () => ((await http(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined), 30_000, 'ready');
  });
  after(() => stack.close());

  it('when the stack is warm, then snapshot ages, Redis up, queue depths and worker outcomes are exported', async () => {
    await http(`${stack.apiUrl}/api/market/stats/nobody_x0`); // one on-demand job and one upstream call
    const text = await eventually(
      async () => {
        const body = (await http(`${stack.apiUrl}/metrics`)).body.toString('utf8');
        return body.includes('market_upstream_requests_total{call="account"') ? body : undefined;
      },
      10_000,
      'worker counters',
    );
    for (const kind of ['trending', 'news', 'trending-cas', 'sentiment']) {
      expect(sample(text, `market_snapshot_age_seconds{kind="${kind}"}`), kind).to.be.within(0, 60);
    }
    expect(sample(text, 'redis_up')).to.equal(1);
    expect(sample(text, 'bullmq_queue_jobs{queue="refresh",state="waiting"}')).to.be.a('number');
    expect(sample(text, 'market_worker_jobs_total{queue="refresh",outcome="completed"}')).to.be.greaterThan(0);
    expect(sample(text, 'market_upstream_requests_total{call="trendingTokens",outcome="ok"}')).to.be.greaterThan(0);
    expect(text).to.include('http_request_duration_seconds_bucket');
  });
});
