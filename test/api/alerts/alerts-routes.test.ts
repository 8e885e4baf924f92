import { expect } from 'chai';
import { http, type HttpAnswer } from '../../support/http.js';
import { startStack, type Stack } from '../../support/stack.js';
import { seedUser, tokenFor } from '../auth/helpers.js';

const RECEIVER = 'http://127.0.0.1:9/hook';
const sentimentRule = (overrides: Record<string, unknown> = {}) => ({
  name: 'SOL turns bearish',
  condition: { type: 'sentiment-label', token: '$sol', to: 'bearish' },
  channels: [{ type: 'webhook', url: RECEIVER }],
  ...overrides,
});

describe('alert rules: /api/alerts', () => {
  let stack: Stack;
  let alice: string;
  let bob: string;
  let aliceKey: string;

  const call = (method: string, path: string, token: string | undefined, body?: unknown): Promise<HttpAnswer> =>
    http(`${stack.apiUrl}${path}`, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  before(async () => {
    stack = await startStack({ workers: 0, env: { ALERTS_ALLOW_LOOPBACK: 'true', ALERTS_MAX_PER_USER: '3' } });
    await seedUser(stack, 'alice@example.com', 'alice password 1');
    await seedUser(stack, 'bob@example.com', 'bob password 12');
    alice = await tokenFor(stack, 'alice@example.com', 'alice password 1');
    bob = await tokenFor(stack, 'bob@example.com', 'bob password 12');
    const created = await stack.deps.apiKeys.create(stack.deps.auth.users, 'alice@example.com', 'bot');
    aliceKey = created!.key;
  });
  after(() => stack.close());
  afterEach(async () => {
    for (const token of [alice, bob]) {
      const list = await call('GET', '/api/alerts', token);
      for (const rule of (list.json as { data: { id: string }[] }).data) await call('DELETE', `/api/alerts/${rule.id}`, token);
    }
  });

  it('when a rule is created, then 201 with its whsec_ secret once, normalised, and listed, read, changed and deleted by its owner', async () => {
    const created = await call('POST', '/api/alerts', alice, sentimentRule({ cooldownSeconds: 600 }));
    expect(created.status).to.equal(201);
    const rule = created.json as { id: string; secret: string; condition: { token: string }; enabled: boolean; cooldownSeconds: number };
    expect(rule.secret).to.match(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(rule.condition.token).to.equal('SOL');
    expect(rule.enabled).to.equal(true);
    expect(created.headers.get('location')).to.equal(`/api/alerts/${rule.id}`);

    const read = await call('GET', `/api/alerts/${rule.id}`, alice);
    expect(read.status).to.equal(200);
    expect(read.json).to.not.have.property('secret');
    expect(JSON.stringify(read.json)).to.not.include(rule.secret);
    expect(((await call('GET', '/api/alerts', alice)).json as { data: unknown[] }).data).to.have.length(1);

    const changed = await call('PATCH', `/api/alerts/${rule.id}`, alice, { name: 'renamed', enabled: false });
    expect(changed.status).to.equal(200);
    expect(changed.json).to.include({ name: 'renamed', enabled: false, cooldownSeconds: 600 });

    expect((await call('DELETE', `/api/alerts/${rule.id}`, alice)).status).to.equal(204);
    expect((await call('GET', `/api/alerts/${rule.id}`, alice)).status).to.equal(404);
  });

  it('when an API key acts as its user, then it sees and manages the same rules', async () => {
    const created = await call('POST', '/api/alerts', aliceKey, sentimentRule());
    expect(created.status).to.equal(201);
    const { id } = created.json as { id: string };
    expect((await call('GET', `/api/alerts/${id}`, alice)).status).to.equal(200);
    expect((await call('GET', '/api/alerts', aliceKey)).json).to.have.nested.property('data[0].id', id);
  });

  it('when another user asks for, changes, deletes, tests or rotates a rule, then 404 as for none, and the rule is untouched', async () => {
    const { id } = (await call('POST', '/api/alerts', alice, sentimentRule())).json as { id: string };
    for (const [method, path, body] of [
      ['GET', `/api/alerts/${id}`, undefined],
      ['PATCH', `/api/alerts/${id}`, { name: 'mine now' }],
      ['DELETE', `/api/alerts/${id}`, undefined],
      ['POST', `/api/alerts/${id}/test`, undefined],
      ['POST', `/api/alerts/${id}/secret`, undefined],
      ['GET', `/api/alerts/${id}/deliveries`, undefined],
    ] as const) {
      const answer = await call(method, path, bob, body);
      expect(answer.status, `${method} ${path}`).to.equal(404);
      expect(answer.json).to.deep.equal({ error: 'Alert not found' });
    }
    expect(((await call('GET', '/api/alerts', bob)).json as { data: unknown[] }).data).to.deep.equal([]);
    expect((await call('GET', `/api/alerts/${id}`, alice)).json).to.include({ name: 'SOL turns bearish' });
  });

  it('when there is no credential, then 401', async () => {
    expect((await call('GET', '/api/alerts', undefined)).status).to.equal(401);
    expect((await call('POST', '/api/alerts', undefined, sentimentRule())).status).to.equal(401);
  });

  it('when a story or caller rule leaves settings out, then it is stored with their defaults, its token and chain normalised', async () => {
    const story = await call('POST', '/api/alerts', alice, sentimentRule({ condition: { type: 'story', token: '$zeta' } }));
    expect(story.status, JSON.stringify(story.json)).to.equal(201);
    expect((story.json as { condition: unknown }).condition).to.deep.equal({ type: 'story', token: 'ZETA', minAuthors: 3 });
    const caller = await call('POST', '/api/alerts', alice, sentimentRule({ condition: { type: 'caller', chain: 'Solana' } }));
    expect(caller.status, JSON.stringify(caller.json)).to.equal(201);
    expect((caller.json as { condition: unknown }).condition).to.deep.equal({
      type: 'caller',
      minHitRate: 0.5,
      minCalls: 3,
      chain: 'solana',
      notTrending: false,
    });
  });

  it('when a field is wrong, then 400 naming it', async () => {
    const cases: [unknown, string][] = [
      [sentimentRule({ name: '' }), 'Invalid field: name'],
      [sentimentRule({ name: undefined }), 'Invalid field: name'],
      [
        sentimentRule({ condition: { type: 'sentiment-threshold', token: 'SOL', threshold: 2, direction: 'up' } }),
        'Invalid field: condition.threshold',
      ],
      [
        sentimentRule({ condition: { type: 'sentiment-threshold', token: 'SOL', threshold: 0.2, direction: 'sideways' } }),
        'Invalid field: condition.direction',
      ],
      [sentimentRule({ condition: { type: 'sentiment-label', token: 'S O L', to: 'bearish' } }), 'Invalid field: condition.token'],
      [sentimentRule({ condition: { type: 'mentions-spike', percent: 0 } }), 'Invalid field: condition.percent'],
      [sentimentRule({ condition: { type: 'rank', top: 101 } }), 'Invalid field: condition.top'],
      [sentimentRule({ condition: { type: 'new-contract', minSmartMoneyMentions: -1 } }), 'Invalid field: condition.minSmartMoneyMentions'],
      [sentimentRule({ condition: { type: 'post', account: 'not a name' } }), 'Invalid field: condition.account'],
      [sentimentRule({ condition: { type: 'story', minAuthors: 0 } }), 'Invalid field: condition.minAuthors'],
      [sentimentRule({ condition: { type: 'caller', minHitRate: 1.5 } }), 'Invalid field: condition.minHitRate'],
      [sentimentRule({ condition: { type: 'caller', notTrending: 'yes' } }), 'Invalid field: condition.notTrending'],
      [sentimentRule({ condition: { type: 'weather' } }), 'Invalid field: condition.type'],
      [sentimentRule({ channels: [] }), 'Invalid field: channels'],
      [sentimentRule({ channels: [{ type: 'email', url: RECEIVER }] }), 'Invalid field: channels.0.type'],
      [
        sentimentRule({ channels: [{ type: 'webhook', url: 'ftp://example.com/x' }] }),
        'Invalid field: channels.0.url must be an http: or https: URL',
      ],
      [
        sentimentRule({ channels: [{ type: 'webhook', url: 'http://u:p@127.0.0.1/x' }] }),
        'Invalid field: channels.0.url must not carry credentials',
      ],
      [sentimentRule({ cooldownSeconds: -1 }), 'Invalid field: cooldownSeconds'],
      [sentimentRule({ cooldownSeconds: 1.5 }), 'Invalid field: cooldownSeconds'],
      [sentimentRule({ enabled: 'yes' }), 'Invalid field: enabled'],
      [[], 'Invalid body: expected a JSON object'],
    ];
    for (const [body, error] of cases) {
      const answer = await call('POST', '/api/alerts', alice, body);
      expect(answer.status, JSON.stringify(body)).to.equal(400);
      expect(answer.json, JSON.stringify(body)).to.deep.equal({ error });
    }
    const { id } = (await call('POST', '/api/alerts', alice, sentimentRule())).json as { id: string };
    expect((await call('PATCH', `/api/alerts/${id}`, alice, { cooldownSeconds: 'soon' })).json).to.deep.equal({
      error: 'Invalid field: cooldownSeconds',
    });
  });

  it('when a user holds ALERTS_MAX_PER_USER rules, then one more is 400, and another user is not limited by them', async () => {
    for (let i = 0; i < 3; i += 1) expect((await call('POST', '/api/alerts', alice, sentimentRule())).status).to.equal(201);
    const refused = await call('POST', '/api/alerts', alice, sentimentRule());
    expect(refused.status).to.equal(400);
    expect(refused.json).to.deep.equal({ error: 'Too many alerts: at most 3 per user' });
    expect((await call('POST', '/api/alerts', bob, sentimentRule())).status).to.equal(201);
  });

  it('when the secret is rotated, then a new one is shown once and the previous one is kept until its expiry', async () => {
    const created = (await call('POST', '/api/alerts', alice, sentimentRule())).json as { id: string; secret: string };
    const rotated = await call('POST', `/api/alerts/${created.id}/secret`, alice);
    expect(rotated.status).to.equal(200);
    const body = rotated.json as { secret: string; secretRotation: { previousExpiresAt: string } };
    expect(body.secret)
      .to.match(/^whsec_/)
      .and.not.equal(created.secret);
    expect(Date.parse(body.secretRotation.previousExpiresAt) - Date.now()).to.be.closeTo(86_400_000, 60_000);
  });
});
