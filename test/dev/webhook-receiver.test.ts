/**
 * `npm run receiver` (dev/webhook-receiver.ts) as a newcomer runs it: a real process fed the answer
 * of POST /api/alerts on stdin, as `npm start`'s printed command pipes it. A signed event is
 * accepted and printed in one line (rule, condition, matches); a bad signature is refused with 401.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SECRET = `whsec_${Buffer.from('a demo secret of thirty-two bytes').toString('base64')}`;

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm run receiver (dev/webhook-receiver.ts)', function () {
  this.timeout(30_000);
  let receiver: ChildProcess;
  let url: string;
  const lines: string[] = [];
  let nextLine: ((line: string) => void) | undefined;
  const line = () => new Promise<string>((resolve) => (nextLine = resolve));

  before(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/`;
    receiver = spawn(process.execPath, ['--import', 'tsx', 'dev/webhook-receiver.ts'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
    createInterface({ input: receiver.stdout! }).on('line', (text) => {
      lines.push(text);
      nextLine?.(text);
    });
    const listening = line();
    const created = { id: 'alr_0123456789abcdef', name: 'SOL sentiment changes', secret: SECRET, channels: [{ type: 'webhook', url }] };
    receiver.stdin!.end(JSON.stringify(created));
    expect(await listening)
      .to.contain(`listening on ${url}`)
      .and.contain('alr_0123456789abcdef');
  });

  after(() => receiver.kill('SIGTERM'));

  const event = {
    type: 'alert.fired',
    timestamp: new Date().toISOString(),
    data: {
      firingId: 'msg_1',
      ruleId: 'alr_0123456789abcdef',
      ruleName: 'SOL sentiment changes',
      condition: { type: 'sentiment-label', token: 'SOL', to: 'any' },
      refreshedAt: new Date().toISOString(),
      matches: [{ token: 'SOL', from: 'neutral', to: 'bearish' }],
    },
  };

  async function post(signature: string): Promise<number> {
    const body = JSON.stringify(event);
    const timestamp = new Date();
    const signed = signature || new Webhook(SECRET).sign('msg_1', timestamp, body);
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)), 'webhook-signature': signed },
      body,
    });
    return answer.status;
  }

  it('when a correctly signed event arrives, then it answers 204 and prints the rule, the condition and the matches in one line', async () => {
    const printed = line();
    expect(await post('')).to.equal(204);
    expect(await printed).to.equal(
      '[receiver] verified alert.fired "SOL sentiment changes" (alr_0123456789abcdef): sentiment-label token=SOL to=any; matches: token=SOL from=neutral to=bearish',
    );
  });

  it('when the signature is not the secret’s, then it refuses the event with 401 and says so', async () => {
    const printed = line();
    const forged = new Webhook(`whsec_${Buffer.from('another secret, not the rule’s one').toString('base64')}`).sign(
      'msg_1',
      new Date(),
      JSON.stringify(event),
    );
    expect(await post(forged)).to.equal(401);
    expect(await printed).to.match(/^\[receiver\] refused msg_1: .*\(401\)$/);
  });
});
