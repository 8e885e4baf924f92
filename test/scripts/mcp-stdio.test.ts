/**
 * Issue 28 item 7: the stdio entry (scripts/mcp-stdio.ts) sends MARKET_SIGNALS_API_KEY only over
 * https or to this machine, and never follows a redirect with it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { generateApiKey } from '../../apps/api/src/auth/api-key-format.js';
import { runTs } from '../api/auth/helpers.js';

describe('npm run mcp (the stdio entry) and its API key', function () {
  this.timeout(30_000);
  const key = generateApiKey();
  const env = { ...process.env, MARKET_SIGNALS_API_KEY: key };

  it('when the API is a plain http:// URL on another host, then it refuses to start, sending nothing', async () => {
    const run = await runTs('scripts/mcp-stdio.ts', ['--url', 'http://api.example.com'], { env });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.equal(
      'mcp-stdio: refusing to send MARKET_SIGNALS_API_KEY over plain http to api.example.com: use an https:// URL (plain http only to localhost)\n',
    );
  });

  describe('when the API answers with a redirect', () => {
    let server: Server;
    const followed: string[] = [];
    before(async () => {
      // /mcp redirects within its own origin (what the SDK follows by default); /moved/mcp records who came.
      server = createServer((req, res) => {
        if (req.url === '/mcp') {
          res.writeHead(307, { Location: '/moved/mcp' }).end();
          return;
        }
        followed.push(String(req.headers['x-api-key']));
        res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('then it does not follow it: it exits 1 and the key reaches no other path', async () => {
      const { port } = server.address() as AddressInfo;
      const run = await runTs('scripts/mcp-stdio.ts', ['--url', `http://127.0.0.1:${port}`], { env });
      expect(run.code).to.equal(1);
      expect(run.stderr).to.match(/^mcp-stdio: cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: /);
      expect(followed).to.deep.equal([]);
    });
  });
});
