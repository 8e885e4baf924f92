/**
 * Which name X takes for the post fields parameter, `post.fields` or `tweet.fields`
 * (docs/providers.md, "X in both spellings"): the name that worked last (Redis, so every worker
 * and a restart agree), and on a 400 naming it, once more in the other. Both requests come out of
 * the refresh's budget: a 400 bills nothing but counts against X's rate limit.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../../../../shared/logger.js';
import { providerKeys } from '../../../../shared/provider-keys.js';
import { UpstreamError } from './upstream-error.js';
import type { ProviderHttp, ProviderResponse } from './upstream-http.js';
import type { RequestBudget } from './x-accounts.js';
import { problemsIn, refusesParameter } from './x-wire.js';

export type FieldsParameter = 'post.fields' | 'tweet.fields';

/** The post fields we read, in each dialect's names (the long text is `note_post` or `note_tweet`). */
const FIELDS: Record<FieldsParameter, string> = {
  'post.fields': 'created_at,author_id,public_metrics,entities,note_post,referenced_tweets,in_reply_to_user_id',
  'tweet.fields': 'created_at,author_id,public_metrics,entities,note_tweet,referenced_tweets,in_reply_to_user_id',
};

const other = (name: FieldsParameter): FieldsParameter => (name === 'post.fields' ? 'tweet.fields' : 'post.fields');

export interface PostFieldsClient {
  /**
   * GET `path` with `params` and the post fields in the dialect X accepts, each request taken
   * from `budget` (the caller has checked one is left). Undefined when X refused the name and no
   * request is left to ask in the other: the next read asks in the other first.
   */
  get(path: string, params: Readonly<Record<string, string | number>>, budget: RequestBudget): Promise<ProviderResponse | undefined>;
}

export function createPostFieldsClient(http: ProviderHttp, redis: Redis, logger: Logger): PostFieldsClient {
  const ask = (path: string, params: Readonly<Record<string, string | number>>, name: FieldsParameter, budget: RequestBudget) =>
    http.get(path, { searchParams: { ...params, [name]: FIELDS[name] }, accept: [400], budget });

  return {
    async get(path, params, budget) {
      const remembered = await redis.get(providerKeys.xFieldsDialect());
      const first: FieldsParameter = remembered === 'tweet.fields' ? 'tweet.fields' : 'post.fields';
      budget.left -= 1;
      let response = await ask(path, params, first, budget);
      if (response.status === 400 && refusesParameter(response.body, first)) {
        const second = other(first);
        if (budget.left <= 0) {
          // X has said it refuses `first`: unconfirmed, `second` is still the better first try,
          // and without it a budget that always ends here would never learn the name.
          await redis.set(providerKeys.xFieldsDialect(), second);
          logger.warn(
            { provider: 'x', refused: first, next: second },
            `x: ${first} was refused (HTTP 400) and the request budget is spent; the next read asks with ${second}`,
          );
          return undefined;
        }
        budget.left -= 1;
        response = await ask(path, params, second, budget);
        if (response.status !== 400) {
          await redis.set(providerKeys.xFieldsDialect(), second);
          logger.warn(
            { provider: 'x', refused: first, accepted: second },
            `x: ${first} was refused (HTTP 400); X accepts ${second}, remembered for every worker`,
          );
        }
      }
      if (response.status === 400) throw invalidRequest(path, response.body);
      return response;
    },
  };
}

/** A 400 we did not expect: our request is wrong, so it is not retried; the reason X gave is kept. */
function invalidRequest(path: string, body: unknown): UpstreamError {
  const detail = problemsIn(body)[0]?.message ?? (body as { detail?: unknown } | null | undefined)?.detail;
  return new UpstreamError(`x ${path}: HTTP 400${typeof detail === 'string' ? ` (${detail.slice(0, 200)})` : ''}`, {
    status: 400,
    retryable: false,
  });
}
