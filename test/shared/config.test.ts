import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { redisOptions } from '../../shared/redis.js';
import { ConfigError, loadConfig } from '../../shared/config.js';

describe('configuration', () => {
  it('when REDIS_KEY_PREFIX is not set, then every key is under ms; set, under its value', () => {
    expect(loadConfig({}).redisKeyPrefix).to.equal('ms');
    expect(loadConfig({ REDIS_KEY_PREFIX: 'staging-2' }).redisKeyPrefix).to.equal('staging-2');
  });

  it('when nothing is set, then development defaults and a generated JWT secret', () => {
    const config = loadConfig({});
    expect(config).to.include({ nodeEnv: 'development', port: 3000, redisUrl: 'redis://127.0.0.1:6379', webConcurrency: 1 });
    expect(config.jwtSecretGenerated).to.equal(true);
    expect(Buffer.byteLength(config.jwtSecret)).to.be.at.least(32);
    expect(Object.isFrozen(config)).to.equal(true);
  });

  it('when TRENDING_WINDOWS is not set, then 24h alone; set, then its windows in order, with 24h always among them', () => {
    expect(loadConfig({}).trendingWindows).to.deep.equal(['24h']);
    expect(loadConfig({ TRENDING_WINDOWS: '30d, 1h' }).trendingWindows).to.deep.equal(['1h', '24h', '30d']);
    expect(loadConfig({ TRENDING_WINDOWS: '24h,4h,7d' }).trendingWindows).to.deep.equal(['4h', '24h', '7d']);
  });

  it('when history and stream limits are not set, then 30 days and 2048 clients; HISTORY_DAYS=0 turns history off', () => {
    expect(loadConfig({})).to.include({ historyDays: 30, streamMaxClients: 2048 });
    expect(loadConfig({ HISTORY_DAYS: '0', STREAM_MAX_CLIENTS: '10000' })).to.include({ historyDays: 0, streamMaxClients: 10000 });
  });

  it('when the per-address caps and the write timeout are not set, then 256 connections, 32 streams and 30 s', () => {
    expect(loadConfig({})).to.include({ maxConnectionsPerAddress: 256, streamMaxClientsPerAddress: 32, writeTimeoutMs: 30_000 });
    expect(loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '1000', STREAM_MAX_CLIENTS_PER_ADDRESS: '4', WRITE_TIMEOUT: '1m' })).to.include({
      maxConnectionsPerAddress: 1000,
      streamMaxClientsPerAddress: 4,
      writeTimeoutMs: 60_000,
    });
  });

  it('when MCP is not configured, then no browser origin is allowed and answers are due within 15 s', () => {
    expect(loadConfig({})).to.deep.include({ mcpAllowedOrigins: [], mcpTimeoutMs: 15_000 });
    expect(loadConfig({ MCP_ALLOWED_ORIGINS: ' https://a.example.com, http://localhost:6274 ', MCP_TIMEOUT: '20s' })).to.deep.include({
      mcpAllowedOrigins: ['https://a.example.com', 'http://localhost:6274'],
      mcpTimeoutMs: 20_000,
    });
  });

  it('when API keys and metrics are not configured, then keys get 600 stats misses and /metrics is public', () => {
    expect(loadConfig({})).to.include({ apiKeyStatsMissBudget: 600, metricsToken: undefined });
    expect(loadConfig({ API_KEY_STATS_MISS_BUDGET: '5000', METRICS_TOKEN: 'a-scrape-token-of-32-characters!' })).to.include({
      apiKeyStatsMissBudget: 5000,
      metricsToken: 'a-scrape-token-of-32-characters!',
    });
  });

  const refusals: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /^PORT: /],
    [{ PORT: '70000' }, /^PORT: /],
    [{ REDIS_URL: 'http://x' }, /^REDIS_URL: must start with redis:\/\/ or rediss:\/\//],
    [{ JWT_SECRET: 'short' }, /^JWT_SECRET: must be at least 32 bytes/],
    [{ NODE_ENV: 'production', REDIS_URL: 'redis://r:6379', INDEX_API_URL: 'https://i' }, /^JWT_SECRET: required when NODE_ENV=production/],
    [{ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), INDEX_API_URL: 'https://i' }, /^REDIS_URL: required/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL: /],
    [{ WEB_CONCURRENCY: '0' }, /^WEB_CONCURRENCY: /],
    [{ INDEX_API_URL: 'not a url' }, /^INDEX_API_URL: not a valid URL/],
    [{ TRUST_PROXY: 'maybe' }, /^TRUST_PROXY: /],
    [{ NODE_ENV: 'staging' }, /^NODE_ENV: /],
    [{ HISTORY_DAYS: '-1' }, /^HISTORY_DAYS: /],
    [{ TRENDING_WINDOWS: '1h,2h' }, /^TRENDING_WINDOWS: must be a comma-separated list of 1h, 4h, 24h, 7d, 30d, got "1h,2h"$/],
    [{ HISTORY_DAYS: '400' }, /^HISTORY_DAYS: /],
    [{ STREAM_MAX_CLIENTS: 'many' }, /^STREAM_MAX_CLIENTS: /],
    [{ MCP_ALLOWED_ORIGINS: 'https://app.example.com/' }, /^MCP_ALLOWED_ORIGINS: must be origins such as/],
    [{ MCP_ALLOWED_ORIGINS: 'https://app.example.com,null' }, /^MCP_ALLOWED_ORIGINS: .*got "null"$/],
    [{ MCP_ALLOWED_ORIGINS: 'ftp://files.example.com' }, /^MCP_ALLOWED_ORIGINS: /],
    [{ MCP_TIMEOUT: '500ms' }, /^MCP_TIMEOUT: must be a duration/],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '0' }, /^MAX_CONNECTIONS_PER_ADDRESS: /],
    [{ STREAM_MAX_CLIENTS_PER_ADDRESS: 'lots' }, /^STREAM_MAX_CLIENTS_PER_ADDRESS: /],
    [{ WRITE_TIMEOUT: '0s' }, /^WRITE_TIMEOUT: must be a duration/],
    [{ INDEX_API_URL: 'https://i.example/v1?api_key=k' }, /^INDEX_API_URL: must be a base address without \?query/],
    [{ REDIS_SENTINELS: '127.0.0.1:26379' }, /^REDIS_SENTINEL_MASTER: required with REDIS_SENTINELS/],
    [{ REDIS_SENTINEL_MASTER: 'mymaster' }, /^REDIS_SENTINELS: required with REDIS_SENTINEL_MASTER/],
    [
      { REDIS_SENTINELS: 'a:1', REDIS_SENTINEL_MASTER: 'm', REDIS_URL: 'redis://r:6379' },
      /^REDIS_SENTINELS: set either REDIS_URL .* not both/,
    ],
    [
      { REDIS_PASSWORD: 'p' },
      /^REDIS_PASSWORD: applies to the data nodes behind Sentinel \(REDIS_SENTINELS\) only; with REDIS_URL put the credentials in the URL/,
    ],
    [{ REDIS_TLS: 'true', REDIS_URL: 'redis://r:6379' }, /^REDIS_TLS: applies to the data nodes behind Sentinel/],
    [{ REDIS_SENTINELS: 'a:1', REDIS_SENTINEL_MASTER: 'm', REDIS_TLS: 'on' }, /^REDIS_TLS: must be true or false/],
    [{ REDIS_SENTINELS: 'a:1,b', REDIS_SENTINEL_MASTER: 'm' }, /^REDIS_SENTINELS: must be host:port\[,host:port...\], got "b"/],
    [{ REDIS_CLUSTER_NODES: 'a:7000', REDIS_URL: 'redis://r:6379' }, /^REDIS_CLUSTER_NODES: set exactly one of .*REDIS_URL is set too$/],
    [
      { REDIS_CLUSTER_NODES: 'a:7000', REDIS_SENTINELS: 'a:1', REDIS_SENTINEL_MASTER: 'm' },
      /^REDIS_CLUSTER_NODES: set exactly one of .*REDIS_SENTINELS is set too$/,
    ],
    [{ REDIS_CLUSTER_NODES: 'a:7000,b:70000' }, /^REDIS_CLUSTER_NODES: must be host:port\[,host:port...\], got "b:70000"/],
    [{ REDIS_CLUSTER_PASSWORD: 'p' }, /^REDIS_CLUSTER_NODES: required with REDIS_CLUSTER_PASSWORD or REDIS_CLUSTER_TLS/],
    [{ REDIS_CLUSTER_NODES: 'a:7000', REDIS_CLUSTER_TLS: 'yes' }, /^REDIS_CLUSTER_TLS: must be true or false/],
    [{ REFRESH_INTERVAL: '10' }, /^REFRESH_INTERVAL: must be a duration/],
    [{ REFRESH_INTERVAL: '0s' }, /^REFRESH_INTERVAL: must be a duration/],
    [{ CALLS_QUIET_DAYS: '0' }, /^CALLS_QUIET_DAYS: must be a whole number from 1 to 30/],
    [{ CALLS_TOP_N: 'ten' }, /^CALLS_TOP_N: must be a whole number/],
    [{ CALLS_HORIZON: '3d' }, /^CALLS_HORIZON: must be whole hours from 1h to 720h/],
    [{ MAX_CONNECTIONS: '3' }, /^MAX_CONNECTIONS: /],
    [{ API_KEY_STATS_MISS_BUDGET: '0' }, /^API_KEY_STATS_MISS_BUDGET: /],
    [{ IPV6_SUBNET_PREFIX: '0' }, /^IPV6_SUBNET_PREFIX: must be a whole number from 1 to 128/],
    [{ IPV6_SUBNET_PREFIX: '/64' }, /^IPV6_SUBNET_PREFIX: /],
    [{ METRICS_TOKEN: 'short' }, /^METRICS_TOKEN: must be at least 16 printable characters without spaces, got 5 characters$/],
    [{ METRICS_TOKEN: 'sixteen chars with spaces' }, /^METRICS_TOKEN: /],
    [{ REDIS_KEY_PREFIX: 'ms{prod}' }, /^REDIS_KEY_PREFIX: must be 1 to 64 letters, digits, "\.", "_" or "-", got "ms\{prod\}"$/],
  ];
  for (const [env, message] of refusals) {
    it(`when ${JSON.stringify(env)}, then a ConfigError naming the variable`, () => {
      expect(() => loadConfig(env)).to.throw(ConfigError, message);
    });
  }

  it('when several variables are bad, then one ConfigError lists each of them, one line each, in the order read', () => {
    const env = {
      NODE_ENV: 'production',
      PORT: 'eighty',
      REDIS_PASSWORD: 'p',
      LOG_LEVEL: 'loud',
      MCP_TIMEOUT: '500ms',
      INDEX_PROVIDER: 'elfa',
    };
    expect(() => loadConfig(env))
      .to.throw(ConfigError)
      .with.property('problems')
      .that.satisfies((problems: string[]) =>
        expect(problems.map((line) => line.split(':')[0])).to.deep.equal([
          'JWT_SECRET',
          'INDEX_PROVIDER',
          'PORT',
          'REDIS_PASSWORD',
          'REDIS_URL',
          'INDEX_API_URL',
          'LOG_LEVEL',
          'MCP_TIMEOUT',
        ]),
      );
  });

  it('when several variables are bad, then the process exits 1 with one line for each', () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', '-e', "import('./shared/config.ts').then((m) => m.loadConfigOrExit())"],
      {
        env: { PATH: process.env.PATH ?? '', PORT: 'eighty', TRUST_PROXY: 'maybe', MCP_ALLOWED_ORIGINS: 'null' },
        encoding: 'utf8',
      },
    );
    expect(result.status).to.equal(1);
    expect(result.stderr.trimEnd().split('\n')).to.deep.equal([
      'Configuration error: PORT: must be a whole number from 0 to 65535, got "eighty"',
      'Configuration error: TRUST_PROXY: must be true or false, got "maybe"',
      'Configuration error: MCP_ALLOWED_ORIGINS: must be origins such as https://app.example.com (scheme://host[:port], no path), comma-separated, got "null"',
    ]);
  });

  it('when REDIS_SENTINELS and REDIS_SENTINEL_MASTER are set, then Sentinel replaces REDIS_URL, also in production', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      REDIS_SENTINELS: 'sentinel-a.internal:26379, [::1]:26380',
      REDIS_SENTINEL_MASTER: 'mymaster',
      REDIS_SENTINEL_PASSWORD: 's3cret',
      JWT_SECRET: 'x'.repeat(32),
      INDEX_API_URL: 'https://index.example.com',
      REFRESH_INTERVAL: '90s',
    });
    expect(config.redisSentinel).to.deep.equal({
      sentinels: [
        { host: 'sentinel-a.internal', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      masterName: 'mymaster',
      password: 's3cret',
      sentinelUsername: undefined,
      sentinelTls: false,
      nodeUsername: undefined,
      nodePassword: undefined,
      nodeTls: false,
    });
    expect(config.refreshIntervalMs).to.equal(90_000);
  });

  it('when the data nodes behind Sentinel have an ACL user, a password and TLS, then every connection uses them, and the sentinels theirs', () => {
    const config = loadConfig({
      REDIS_SENTINELS: 'sentinel-a.internal:26379',
      REDIS_SENTINEL_MASTER: 'mymaster',
      REDIS_SENTINEL_USERNAME: 'watcher',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
      REDIS_SENTINEL_TLS: 'true',
      REDIS_USERNAME: 'app',
      REDIS_PASSWORD: 'node-secret',
      REDIS_TLS: 'true',
      REDIS_TLS_INSECURE: 'true',
    });
    const options = redisOptions(config, 'fast');
    expect(options).to.include({
      username: 'app',
      password: 'node-secret',
      enableTLSForSentinelMode: true,
      sentinelUsername: 'watcher',
      sentinelPassword: 'sentinel-secret',
      name: 'mymaster',
    });
    expect(options.tls).to.deep.equal({ rejectUnauthorized: false });
    expect(options.sentinelTLS).to.deep.equal({ rejectUnauthorized: false });
    const plain = redisOptions(loadConfig({ REDIS_SENTINELS: 'a:1', REDIS_SENTINEL_MASTER: 'm', REDIS_PASSWORD: 'node-secret' }), 'worker');
    expect(plain).to.include({ password: 'node-secret' });
    expect(plain).not.to.have.any.keys('tls', 'sentinelTLS', 'enableTLSForSentinelMode', 'username');
  });

  it('when REDIS_CLUSTER_NODES is set, then Cluster replaces REDIS_URL, also in production', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      REDIS_CLUSTER_NODES: 'node-a.internal:7000, [::1]:7001',
      REDIS_CLUSTER_PASSWORD: 's3cret',
      REDIS_CLUSTER_TLS: 'true',
      JWT_SECRET: 'x'.repeat(32),
      INDEX_API_URL: 'https://index.example.com',
    });
    expect(config.redisCluster).to.deep.equal({
      nodes: [
        { host: 'node-a.internal', port: 7000 },
        { host: '::1', port: 7001 },
      ],
      password: 's3cret',
      tls: true,
    });
    expect(config.redisSentinel).to.equal(undefined);
  });

  it('accepts rediss:// and a production environment that has everything', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      REDIS_URL: 'rediss://:p@host:6380',
      REDIS_TLS_INSECURE: 'true',
      JWT_SECRET: 'x'.repeat(32),
      INDEX_API_URL: 'https://index.example.com',
      WEB_CONCURRENCY: '2',
    });
    expect(config).to.include({ redisTlsInsecure: true, jwtSecretGenerated: false, webConcurrency: 2 });
  });

  it('when an upstream address is plain http:// to another machine in production, then a ConfigError naming each; loopback and other environments are allowed (issue 38 item 9)', () => {
    const production = { NODE_ENV: 'production', REDIS_URL: 'redis://host:6379', JWT_SECRET: 'x'.repeat(32) };
    let problems: readonly string[] = [];
    try {
      loadConfig({
        ...production,
        INDEX_API_URL: 'http://index.example.com',
        INDEX_PROVIDER: 'composite',
        ELFA_API_KEY: 'elfa-key',
        X_BEARER_TOKEN: 'x-token',
        TRACKED_ACCOUNTS: 'alice',
        ELFA_API_URL: 'http://elfa.example.com',
        X_API_URL: 'https://x.example.com',
      });
      expect.fail('expected a ConfigError');
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(
      problems.filter((line) => / must be https:\/\/ when NODE_ENV=production/.test(line)).map((line) => line.split(':')[0]),
    ).to.deep.equal(['INDEX_API_URL', 'ELFA_API_URL']);
    expect(loadConfig({ ...production, INDEX_API_URL: 'http://127.0.0.1:4010' }).indexApiUrl).to.equal('http://127.0.0.1:4010');
    expect(loadConfig({ ...production, INDEX_API_URL: 'http://localhost:4010' }).indexApiUrl).to.equal('http://localhost:4010');
    expect(loadConfig({ ...production, INDEX_API_URL: 'http://simulator:4010' }).indexApiUrl, 'docker-compose.yml').to.equal(
      'http://simulator:4010',
    );
    expect(() => loadConfig({ ...production, INDEX_API_URL: 'http://10.0.0.7:4010' })).to.throw(
      ConfigError,
      /INDEX_API_URL: must be https/,
    );
    expect(loadConfig({ NODE_ENV: 'development', INDEX_API_URL: 'http://index.example.com' }).indexApiUrl).to.equal(
      'http://index.example.com',
    );
  });
});
