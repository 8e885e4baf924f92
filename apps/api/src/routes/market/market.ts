/** GET /api/market/*: the cached market reads, one Koa route per entry of the table in apps/api/src/market/reads.ts. */
import Router from '@koa/router';
import { MARKET_READS, READ_NAMES } from '../../market/reads.js';
import type { ReadSpec } from '../../market/read-spec.js';
import { apiKeyOf } from '../../auth/api-key-auth.js';
import { boundRead } from '../../market/read-resolvers.js';
import type { ApiDeps } from '../../deps.js';
import { sendRead } from '../../http/representation.js';

export function marketRoutes(deps: ApiDeps, router = new Router()): Router {
  const { missBudget } = deps;
  for (const name of READ_NAMES) {
    const read: ReadSpec = MARKET_READS[name];
    const resolver = boundRead(deps.reads, read);
    router.get(read.path, async (ctx) => {
      const answer = await resolver.get({ params: ctx.params, query: ctx.query }, async () => {
        // Set at once: the RateLimit fields go with the answer, or with the error that follows.
        ctx.set(await missBudget.charge(ctx.ip, apiKeyOf(ctx)?.key.id));
      });
      sendRead(ctx, answer, deps.encodings);
    });
  }
  return router;
}
