/**
 * Hostile and slow clients against one web process: slowloris (headers a byte at a time),
 * a body dribbled slower than the request time allows, more connections than the process
 * admits, and a legitimate client too slow to read its download.
 */
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { startTestRedis, type TestRedis } from '../support/redis-server.js';
import { sleep, startDeployment, type Deployment } from './support/deployment.js';
import { startLoad, summarize } from './support/load.js';
import { record } from './support/report.js';

interface RawClient {
  socket: Socket;
  /** Everything the server sent. */
  received: () => string;
  closedAt: () => number | undefined;
}

function rawClient(port: number): RawClient {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  let closedAt: number | undefined;
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  socket.on('close', () => (closedAt = Date.now()));
  return { socket, received: () => received, closedAt: () => closedAt };
}

describe('hostile and slow clients', function () {
  this.timeout(120_000);
  let redis: TestRedis;
  let deployment: Deployment;

  beforeEach(async () => {
    redis = await startTestRedis({ appendOnly: true });
    // Every socket here comes from this one address: its own cap is lifted, the process's is tested.
    deployment = await startDeployment({
      redisEnv: { REDIS_URL: redis.url },
      env: { MAX_CONNECTIONS: '400', MAX_CONNECTIONS_PER_ADDRESS: '100000' },
    });
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') process.stdout.write(`${deployment.logTail()}\n`);
    await deployment.stop();
    await redis.stop();
  });

  it('when 300 slowloris sockets trickle headers and a body trickles slower than allowed, then they are cut (408) while other clients are served, and a slow reader still gets its whole download', async () => {
    const load = startLoad({
      baseUrl: deployment.apiUrl,
      paths: ['/api/market/trending', '/api/market/news?limit=20'],
      clients: 4,
      pauseMs: 50,
    });
    const started = Date.now();
    const slow = Array.from({ length: 300 }, () => rawClient(deployment.port));
    for (const client of slow) client.socket.write('GET /api/market/trending HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => {
      for (const client of slow) if (!client.socket.destroyed) client.socket.write(`X-Slow-${Date.now() % 1000}: 1\r\n`);
    }, 1000);
    // A login body promised 100 bytes and sent one a second: the request takes longer than 30 s.
    const dribbler = rawClient(deployment.port);
    dribbler.socket.write('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    const drip = setInterval(() => dribbler.socket.destroyed || dribbler.socket.write(' '), 1000);
    // A reader that takes 35 s to start reading a 50-post news page.
    const reader = rawClient(deployment.port);
    reader.socket.pause();
    reader.socket.write('GET /api/market/news?limit=50 HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n');

    await sleep(14_000);
    const cutInTime = slow.filter((c) => c.closedAt() !== undefined && c.closedAt()! - started < 14_000);
    await sleep(21_000);
    reader.socket.resume();
    await sleep(2000);
    clearInterval(trickle);
    clearInterval(drip);
    const outcomes = await load.stop();
    const summary = summarize(outcomes, started, Date.now(), (o) => o.status !== 200);

    expect(cutInTime.length, 'slowloris sockets closed within 14 s').to.equal(300);
    expect(slow.every((c) => c.received().startsWith('HTTP/1.1 408') && c.received().includes('{"error":'))).to.equal(true);
    expect(dribbler.closedAt(), 'the dribbled body is cut').to.not.equal(undefined);
    expect(dribbler.received()).to.match(/^HTTP\/1\.1 408/);
    expect(summary.errors.length, 'legitimate requests that failed').to.equal(0);
    const body = reader.received().split('\r\n\r\n')[1] ?? '';
    expect((JSON.parse(body) as { data: unknown[] }).data).to.have.length(50);
    record({
      fault: 'slowloris: 300 sockets trickling headers, one body dribbled, one slow reader',
      requests: summary.sent,
      errors: 0,
      degradedSeconds: 0,
      usersLost: 0,
      jobsLost: 0,
      note: 'legitimate clients 200 throughout; every slow-header socket got 408 {error} within 11 s, the dribbled body within 31 s; the reader that waited 35 s got all 50 posts',
    });
  });

  it('when more connections are opened than MAX_CONNECTIONS, then the extra ones get 503 {error} and the admitted ones are served', async () => {
    const held = Array.from({ length: 420 }, () => rawClient(deployment.port));
    await sleep(1500);
    const refused = held.filter((c) => c.received().startsWith('HTTP/1.1 503'));
    expect(refused.length).to.be.within(20, 21);
    expect(refused.every((c) => c.received().endsWith('{"error":"Service unavailable"}') && c.closedAt() !== undefined)).to.equal(true);
    const admitted = held.find((c) => c.closedAt() === undefined)!;
    admitted.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(300);
    expect(admitted.received()).to.match(/^HTTP\/1\.1 200/);
    for (const client of held) client.socket.destroy();
    await sleep(300);
    expect((await fetch(`${deployment.apiUrl}/api/market/trending`)).status).to.equal(200);
    record({
      fault: 'connection flood: 420 sockets against MAX_CONNECTIONS=400',
      requests: held.length,
      errors: 0,
      degradedSeconds: 0,
      usersLost: 0,
      jobsLost: 0,
      note: `${refused.length} connections beyond the cap got 503 {"error":"Service unavailable"} with Retry-After and were closed; admitted ones were served`,
    });
  });
});
