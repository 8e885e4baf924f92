/**
 * `npm run receiver`: a webhook receiver for trying alerts on one machine (dev only). It listens on
 * loopback, verifies each event's Standard Webhooks signature with the rule's secret (the
 * `standardwebhooks` package, as a real receiver would) and prints one line a person reads: the
 * rule, its condition, what matched. A bad or missing signature is refused with 401 and said so.
 *
 * The secret is shown once, in the answer to POST /api/alerts; so `npm start` prints the create
 * command piped into this one: the receiver reads that answer on stdin and takes the rule's secret
 * and its webhook's port from it. Or: `WEBHOOK_SECRET=whsec_… RECEIVER_PORT=4020 npm run receiver`.
 */
import { createServer, type Server } from 'node:http';
import { text } from 'node:stream/consumers';
import { Webhook } from 'standardwebhooks';

const DEFAULT_RECEIVER_PORT = 4020;

interface Receiving {
  secret: string;
  port: number;
  /** The rule the secret is for, when read from a create answer. */
  rule?: { id: string; name: string };
}

interface CreatedRule {
  id?: unknown;
  name?: unknown;
  secret?: unknown;
  channels?: { url?: unknown }[];
  error?: unknown;
}

/** The secret and port from a POST /api/alerts answer (its first loopback webhook's port). */
function fromCreateAnswer(answer: string): Receiving {
  let rule: CreatedRule;
  try {
    rule = JSON.parse(answer) as CreatedRule;
  } catch {
    throw new Error(`stdin is not the JSON answer of POST /api/alerts: ${answer.slice(0, 200) || '(empty)'}`);
  }
  if (typeof rule.error === 'string') throw new Error(`the API refused the rule: ${rule.error}`);
  if (typeof rule.secret !== 'string' || typeof rule.id !== 'string') throw new Error('the answer on stdin has no rule id and secret');
  const url = rule.channels?.map((channel) => URL.parse(String(channel.url))).find((parsed) => parsed?.hostname === '127.0.0.1');
  return {
    secret: rule.secret,
    port: url?.port ? Number(url.port) : DEFAULT_RECEIVER_PORT,
    rule: { id: rule.id, name: String(rule.name) },
  };
}

type Scalar = string | number | null;
interface Event {
  type?: string;
  data?: { ruleId?: string; ruleName?: string; condition?: Record<string, Scalar>; matches?: Record<string, Scalar>[] };
}

const pairs = (record: Record<string, Scalar>) =>
  Object.entries(record)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');

/** One line: `alert.fired "SOL turns" (alr_…): sentiment-label token=SOL to=any; matches: token=SOL label=bearish`. */
function describeEvent(event: Event): string {
  const data = event.data ?? {};
  const { type = '?', ...rest } = data.condition ?? {};
  const condition = `${type}${Object.keys(rest).length ? ` ${pairs(rest)}` : ''}`;
  const matches = data.matches?.length ? data.matches.map(pairs).join(' | ') : 'none (a test event)';
  return `${event.type ?? 'event'} "${data.ruleName ?? '?'}" (${data.ruleId ?? '?'}): ${condition}; matches: ${matches}`;
}

function startReceiver(receiving: Receiving, print: (line: string) => void): Promise<Server> {
  const webhook = new Webhook(receiving.secret);
  const server = createServer((req, res) => {
    void text(req).then((body) => {
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      let event: Event;
      try {
        event = webhook.verify(body, headers) as Event;
      } catch (error) {
        print(`refused ${headers['webhook-id'] || 'a request'}: ${error instanceof Error ? error.message : String(error)} (401)`);
        res.writeHead(401).end();
        return;
      }
      print(`verified ${describeEvent(event)}`);
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(receiving.port, '127.0.0.1', () => resolve(server));
  });
}

async function main(): Promise<void> {
  const print = (line: string) => process.stdout.write(`[receiver] ${line}\n`);
  const envSecret = process.env.WEBHOOK_SECRET;
  let receiving: Receiving;
  if (envSecret) receiving = { secret: envSecret, port: Number(process.env.RECEIVER_PORT) || DEFAULT_RECEIVER_PORT };
  else if (process.stdin.isTTY)
    throw new Error('no secret: pipe the answer of POST /api/alerts into it (npm start prints the command), or set WEBHOOK_SECRET=whsec_…');
  else receiving = fromCreateAnswer(await text(process.stdin));
  const server = await startReceiver(receiving, print);
  const rule = receiving.rule ? ` for rule "${receiving.rule.name}" (${receiving.rule.id})` : '';
  print(`listening on http://127.0.0.1:${receiving.port}/${rule}, verifying signatures; Ctrl-C stops it`);
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGINT', stop).once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`[receiver] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
