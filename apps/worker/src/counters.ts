/**
 * Job outcomes and upstream call outcomes, counted in one Redis hash (keys.workerCounters) so
 * the API's /metrics can export them: worker processes have no port a Prometheus can scrape on
 * a Heroku-style platform. A field is `<metric>|<label>|<outcome>`; counting is best effort.
 */
import type { Redis } from 'ioredis';
import { keys } from '../../../shared/keyspace.js';
import type { MarketProvider } from './providers/market-provider.js';

/** `provider_*`: the composite adapters' calls by status, credits charged, blocks, routes found gone (apps/worker/src/providers); `refresh`: attempts per refresh job. */
export type CountFn = (
  metric: 'jobs' | 'upstream' | 'provider_calls' | 'provider_blocked' | 'provider_route_gone' | 'refresh',
  label: string,
  outcome: string,
) => void;

export function redisCounter(redis: Redis): CountFn {
  return (metric, label, outcome) => {
    redis.hincrby(keys.workerCounters(), `${metric}|${label}|${outcome}`, 1).catch(() => {});
  };
}

/** The same client, each call counted as `ok` or `error` under its method name (whatever methods it has). */
export function countedIndexClient(index: MarketProvider, count: CountFn): MarketProvider {
  return new Proxy(index, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      return async (...args: unknown[]): Promise<unknown> => {
        try {
          const result: unknown = await Reflect.apply(value, target, args);
          count('upstream', name, 'ok');
          return result;
        } catch (error) {
          count('upstream', name, 'error');
          throw error;
        }
      };
    },
  });
}
