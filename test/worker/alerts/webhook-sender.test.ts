/**
 * The address matrix at delivery: every refused address is refused at the connection, with its
 * reason, whether the URL names it or a host resolves to it (DNS rebinding: the resolver is
 * injected and answers what an attacker's DNS would). Nothing here connects anywhere but loopback.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createWebhookSender } from '../../../apps/worker/src/alerts/webhook-sender.js';
import type { ResolvedAddress } from '../../../shared/alerts/address-policy.js';
import { ADDRESS_IN_TEXT, REFUSED_URLS } from '../../support/address-matrix.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const attempt = (url: string) => ({ url, id: 'msg_test', timestamp: new Date(), body: '{}', secrets: [SECRET] });

describe('alerts: the webhook sender refuses forbidden addresses at every connection', () => {
  let receiver: Receiver;
  let resolved: ResolvedAddress[] = [];
  const resolve = (host: string) => Promise.resolve(host === 'rebind.test' ? resolved : [{ address: '127.0.0.1', family: 4 }]);
  const sender = (allowLoopback: boolean) =>
    createWebhookSender({ requireHttps: false, allowLoopback, connectTimeoutMs: 1000, requestTimeoutMs: 2000, resolve });
  before(async () => {
    receiver = await startReceiver();
    receiver.secrets.push(SECRET);
  });
  after(() => receiver.close());

  for (const [url, reason] of REFUSED_URLS.filter(([url]) => !url.includes('localhost'))) {
    it(`when the URL is ${url}, then it is refused without a connection, not retried, with the reason`, async () => {
      const result = await sender(false).send(attempt(url));
      expect(result).to.include({ kind: 'failed', status: null, retryable: false });
      expect(result.kind === 'failed' && result.error).to.match(reason);
    });

    const address = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (address.startsWith('127.') && url.includes('0x7f')) continue; // the same address as 2130706433's
    it(`when a host resolves to ${address} at delivery (DNS rebinding), then it is refused with the reason`, async () => {
      resolved = [{ address, family: address.includes(':') ? 6 : 4 }];
      const result = await sender(false).send(attempt('http://rebind.test/hook'));
      expect(result).to.include({ kind: 'failed', status: null, retryable: false });
      expect(result.kind === 'failed' && result.error).to.match(/^host rebind\.test resolves to /);
      expect(result.kind === 'failed' && result.error).to.match(reason);
      expect(result.kind === 'failed' && result.error, 'never the address').to.not.match(ADDRESS_IN_TEXT);
    });
  }

  it('when a name resolves to loopback and loopback is not allowed, then it is refused; allowed, it is delivered and verifies', async () => {
    const port = new URL(receiver.url()).port;
    const refused = await sender(false).send(attempt(`http://localhost:${port}/hook`));
    expect(refused.kind === 'failed' && refused.error).to.match(/^host localhost resolves to a loopback address/);
    expect(receiver.received).to.have.length(0);
    const delivered = await sender(true).send(attempt(`http://localhost:${port}/hook`));
    expect(delivered).to.include({ kind: 'delivered', status: 200 });
    expect(receiver.received.map((r) => r.verifiedBy)).to.deep.equal([0]);
  });

  it('when a public address is among a name’s loopback ones, then the whole name is refused', async () => {
    resolved = [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ];
    const result = await sender(false).send(attempt('http://rebind.test/hook'));
    expect(result.kind === 'failed' && result.error).to.equal('host rebind.test resolves to a private address, which is refused');
  });

  it('when the receiver redirects, then the redirect is not followed and the attempt fails without retry', async () => {
    const port = new URL(receiver.url()).port;
    receiver.answer = 302;
    receiver.headers = { Location: 'http://169.254.169.254/latest/meta-data' };
    const result = await sender(true).send(attempt(`http://127.0.0.1:${port}/hook`));
    expect(result).to.include({ kind: 'failed', status: 302, retryable: false, error: 'redirect (302) not followed' });
  });

  it('when https is required, then an http: URL is refused', async () => {
    const strict = createWebhookSender({
      requireHttps: true,
      allowLoopback: true,
      connectTimeoutMs: 1000,
      requestTimeoutMs: 2000,
      resolve,
    });
    const result = await strict.send(attempt(receiver.url()));
    expect(result.kind === 'failed' && result.error).to.equal('the URL must be an https: URL');
  });

  describe('a receiver that misbehaves', () => {
    const servers: Server[] = [];
    const serve = async (handler: Parameters<typeof createServer>[1]) => {
      const server = createServer(handler);
      servers.push(server);
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
    };
    afterEach(() => servers.splice(0).forEach((server) => server.close().closeAllConnections()));

    it('when it never answers, then the attempt ends at the request timeout and is retried', async () => {
      const { url } = await serve(() => {});
      const quick = createWebhookSender({
        requireHttps: false,
        allowLoopback: true,
        connectTimeoutMs: 1000,
        requestTimeoutMs: 300,
        resolve,
      });
      const result = await quick.send(attempt(url));
      quick.close();
      expect(result).to.include({ kind: 'failed', status: null, retryable: true });
      expect(result.kind === 'failed' && result.error).to.match(/^ETIMEDOUT: /);
    });

    it('when its answer never ends, then the status is taken after 64 KiB and the rest is not read', async () => {
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const { url } = await serve((req, res) => {
        res.writeHead(200);
        const more = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', more);
        };
        more();
      });
      const patient = createWebhookSender({
        requireHttps: false,
        allowLoopback: true,
        connectTimeoutMs: 1000,
        requestTimeoutMs: 60_000,
        resolve,
      });
      const result = await patient.send(attempt(url));
      patient.close();
      expect(result).to.include({ kind: 'delivered', status: 200 });
    });

    it('when several events go to one receiver, then they share a kept-alive connection', async () => {
      let connections = 0;
      const { url, server } = await serve((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
      server.on('connection', () => connections++);
      const kept = sender(true);
      for (let i = 0; i < 3; i++) expect(await kept.send(attempt(url))).to.include({ kind: 'delivered', status: 204 });
      kept.close();
      expect(connections).to.equal(1);
    });
  });
});
