import { expect } from 'chai';
import { http } from '../support/http.js';
import { startStack, type Stack } from '../support/stack.js';

describe('GET /readyz before the first snapshots', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ workers: 0 });
  });
  after(() => stack.close());

  it('when a probe asks before any refresh, then 503 Not ready with Retry-After, and no warning is logged', async () => {
    const warnings: unknown[] = [];
    const logger = stack.deps.logger;
    const original = logger.warn.bind(logger);
    logger.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      const res = await http(`${stack.apiUrl}/readyz`);
      expect(res.status).to.equal(503);
      expect((res.json as { error: string }).error).to.match(/^Not ready: no snapshot yet for /);
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
    } finally {
      logger.warn = original;
    }
    // A start-up probe is the readiness check doing its job, not a fault: it stays in the access log only.
    expect(warnings).to.deep.equal([]);
  });
});
