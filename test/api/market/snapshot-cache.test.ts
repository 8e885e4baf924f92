/**
 * A snapshot that lands but cannot be loaded must not pass in silence: the copy held goes on
 * being served, and the failure is logged with the version that failed.
 */
import { expect } from 'chai';
import { writeSnapshots } from '../../../shared/snapshot-store.js';
import { http } from '../../support/http.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';

describe('snapshot cache: a snapshot that fails to load', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(() => stack.close());

  it('when a landed snapshot is not valid JSON, then a warning names it and its version, and the copy held is still served', async () => {
    const held = await eventually(async () => {
      const res = await http(`${stack.apiUrl}/api/market/trending`);
      return res.status === 200 ? res.body.toString('utf8') : undefined;
    });
    const warnings: unknown[][] = [];
    const logger = stack.deps.logger;
    const original = logger.warn.bind(logger);
    logger.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      await writeSnapshots(stack.redis, [{ name: 'trending', body: '{"data": [', version: 'corrupt-1' }]);
      const [fields, message] = await eventually(() => warnings.find(([, text]) => String(text).startsWith('snapshot failed to load')));
      expect(fields).to.include({ snapshot: 'trending', version: 'corrupt-1' });
      expect(String(message)).to.equal('snapshot failed to load; the copy held is still served');
      expect((fields as { heldVersion: string }).heldVersion)
        .to.be.a('string')
        .and.not.equal('corrupt-1');
      expect((fields as { err: string }).err).to.match(/^SyntaxError: /);
    } finally {
      logger.warn = original;
    }
    const res = await http(`${stack.apiUrl}/api/market/trending`);
    expect(res.status).to.equal(200);
    expect(res.body.toString('utf8')).to.equal(held);
  });
});
