/**
 * /metrics for INDEX_PROVIDER=composite (docs/providers.md, "Quotas"): the adapters' calls by
 * status, what they spent (Elfa and CoinGecko credits, X posts and users read), which provider is
 * blocked until when and why (402, usage cap), and the tracked accounts by state on X. The worker keeps them in Redis; this reads them
 * at scrape time. With INDEX_PROVIDER=index every series is simply absent.
 */
import type { Redis } from 'ioredis';
import { Gauge, type Registry } from 'prom-client';
import { providerKeys, type ProviderBlock } from '../../../shared/provider-keys.js';
import { registerWorkerCounters } from './ops-metrics.js';

export function registerProviderMetrics(registry: Registry, redis: Redis): void {
  registerWorkerCounters(registry, redis, [
    [
      'market_provider_calls_total',
      'Calls of each provider by the workers, by HTTP status (network: no answer)',
      'provider_calls',
      ['provider', 'status'],
    ],
    [
      'market_provider_spend_total',
      'What the workers spent at each provider: credits (Elfa, CoinGecko), posts and users read (X, billed per resource)',
      'provider_spend',
      ['provider', 'unit'],
    ],
    ['market_provider_blocks_total', 'Times a provider was blocked until its reset, by reason', 'provider_blocked', ['provider', 'reason']],
    [
      'market_provider_routes_gone_total',
      'Times a provider route was found gone (404/410 for any input, e.g. a retired endpoint)',
      'provider_route_gone',
      ['provider', 'route'],
    ],
  ]);
  new Gauge({
    name: 'market_provider_blocked_until_seconds',
    help: 'A provider the workers do not call before this time (unix seconds), and why: out of credits (402) or usage cap',
    labelNames: ['provider', 'reason'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const blocks = await redis.hgetall(providerKeys.blocked()).catch(() => ({}));
      for (const [provider, raw] of Object.entries(blocks)) {
        const block = JSON.parse(raw) as ProviderBlock;
        const until = Date.parse(block.until);
        if (until > Date.now()) this.set({ provider, reason: block.reason }, until / 1000);
      }
    },
  });
  new Gauge({
    name: 'market_x_tracked_accounts',
    help: 'Tracked accounts (TRACKED_ACCOUNTS) by their state on X at the last lookup: active, renamed, protected, suspended, deleted, not_found, unresolved',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const states = await redis.hgetall(providerKeys.xAccountStates()).catch(() => ({}));
      for (const [state, count] of Object.entries(states)) this.set({ state }, Number(count));
    },
  });
}
