/**
 * The tracked accounts as X knows them today (docs/providers.md, "Accounts that change"): each
 * name resolved to its id once, then looked up by id once a day (the follower count comes from
 * there, not from every page of posts); a warn line per change of state; the count by state for /metrics.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../../../../shared/logger.js';
import { providerKeys } from '../../../../shared/provider-keys.js';
import { UpstreamError } from './upstream-error.js';
import type { ProviderHttp } from './upstream-http.js';
import { recordSpend } from './spend.js';
import { parseItems } from './tolerant.js';
import { accountProblem, pageSchema, problemsOf, userSchema, type WireUser } from './x-wire.js';

/** What each means: docs/providers.md, "Accounts that change". */
export const ACCOUNT_STATES = ['active', 'renamed', 'protected', 'suspended', 'deleted', 'not_found', 'unresolved'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

export interface TrackedAccount {
  /** As TRACKED_ACCOUNTS spells it. */
  configured: string;
  state: AccountState;
  id?: string;
  /** As X spells it at the last lookup. */
  username?: string;
  followers?: number;
  /** ISO time of the last lookup that answered for it. */
  checkedAt?: string;
}

/** Accounts whose posts can be read with an app token. */
export const readable = (account: TrackedAccount): account is TrackedAccount & { id: string; username: string } =>
  account.id !== undefined && account.username !== undefined && (account.state === 'active' || account.state === 'renamed');

/** How often a tracked account is looked up again (X bills a user object once a day). */
export const RECHECK_MS = 86_400_000;

/** Requests a caller may still spend (the news refresh's budget); undefined: no limit. */
export interface RequestBudget {
  left: number;
}

export interface TrackedAccounts {
  /**
   * The accounts, those never looked up or not within a day looked up first (at most
   * `budget.left` requests; with `only`, just those configured names).
   */
  resolve(configured: readonly string[], options?: { budget?: RequestBudget; only?: ReadonlySet<string> }): Promise<TrackedAccount[]>;
  /** The accounts as last looked up, no call (any of them may be `unresolved`). */
  held(configured: readonly string[]): Promise<TrackedAccount[]>;
}

const BATCH = 100;

export function createTrackedAccounts(http: ProviderHttp, redis: Redis, logger: Logger, now: () => Date): TrackedAccounts {
  async function held(configured: readonly string[]): Promise<TrackedAccount[]> {
    const stored =
      configured.length === 0 ? [] : await redis.hmget(providerKeys.xAccounts(), ...configured.map((name) => name.toLowerCase()));
    return configured.map((name, at) => {
      const raw = stored[at];
      const known = raw ? (JSON.parse(raw) as TrackedAccount) : undefined;
      return known ? { ...known, configured: name } : { configured: name, state: 'unresolved' };
    });
  }

  async function lookup(byId: boolean, values: string[], budget: RequestBudget | undefined) {
    const path = byId ? '/2/users' : '/2/users/by';
    const searchParams = { [byId ? 'ids' : 'usernames']: values.join(','), 'user.fields': 'public_metrics,protected' };
    const { body } = await http.get(path, { searchParams, budget });
    const parsed = pageSchema.safeParse(body);
    if (!parsed.success) throw new UpstreamError(`x ${path}: invalid payload`, { retryable: false });
    const users = parseItems(parsed.data.data ?? [], userSchema).valid;
    recordSpend('x', { users: users.length });
    return { users, problems: problemsOf(parsed.data.errors) };
  }

  function found(account: TrackedAccount, user: WireUser, at: string): TrackedAccount {
    const state: AccountState = user.protected
      ? 'protected'
      : user.username.toLowerCase() === account.configured.toLowerCase()
        ? 'active'
        : 'renamed';
    return {
      configured: account.configured,
      state,
      id: user.id,
      username: user.username,
      followers: user.public_metrics?.followers_count ?? account.followers,
      checkedAt: at,
    };
  }

  function report(before: TrackedAccount, after: TrackedAccount): void {
    if (before.state === after.state && before.username === after.username) return;
    const name = `@${after.configured}`;
    const fields = { provider: 'x', account: after.configured, id: after.id, state: after.state, was: before.state };
    if (after.state === 'renamed' && before.username !== after.username) {
      logger.warn(
        { ...fields, username: after.username },
        `x: tracked account ${name} is now @${after.username} on X (same id ${after.id}); its posts still count; update TRACKED_ACCOUNTS`,
      );
    } else if (after.state === 'active') {
      if (before.state !== 'unresolved') logger.info(fields, `x: tracked account ${name} is active again`);
    } else if (after.state !== 'unresolved') {
      const why = {
        suspended: 'is suspended',
        protected: 'is protected (visible to its followers only)',
        deleted: 'no longer exists (its id is gone)',
        not_found: 'was not found on X',
        renamed: 'is spelled differently',
      }[after.state];
      logger.warn(fields, `x: tracked account ${name} ${why}; its posts are not read`);
    }
  }

  return {
    held,
    async resolve(configured, { budget, only } = {}) {
      const accounts = await held(configured);
      const at = now().toISOString();
      const due = accounts.filter(
        (account) =>
          (only === undefined || only.has(account.configured)) &&
          (account.checkedAt === undefined || Date.parse(account.checkedAt) < now().getTime() - RECHECK_MS),
      );
      const updated = new Map<string, TrackedAccount>();
      let failure: Error | undefined;
      const spend = () => {
        if (budget && budget.left <= 0) return false;
        if (budget) budget.left -= 1;
        return true;
      };
      // By id once known (a rename keeps it), else by the configured name; an id X no longer finds was deleted.
      const lookUpDue = async (byId: boolean) => {
        const batches = due.filter((account) => (account.id !== undefined) === byId);
        const same = (value: string | undefined, account: TrackedAccount) =>
          byId ? value === account.id : value?.toLowerCase() === account.configured.toLowerCase();
        for (let start = 0; start < batches.length && spend(); start += BATCH) {
          const batch = batches.slice(start, start + BATCH);
          const values = batch.map((account) => (byId ? account.id! : account.configured));
          const { users, problems } = await lookup(byId, values, budget);
          for (const account of batch) {
            const user = users.find((candidate) => same(byId ? candidate.id : candidate.username, account));
            const problem = problems.find((candidate) =>
              same(byId ? (candidate.resource_id ?? candidate.value) : (candidate.value ?? candidate.resource_id), account),
            );
            const kind = problem && accountProblem(problem);
            if (user) updated.set(account.configured, found(account, user, at));
            else if (kind)
              updated.set(account.configured, { ...account, state: byId && kind === 'not_found' ? 'deleted' : kind, checkedAt: at });
          }
        }
      };
      try {
        await lookUpDue(true);
        await lookUpDue(false);
      } catch (error) {
        // What was looked up before the failure is kept; the others keep their last state.
        failure = error instanceof Error ? error : new Error('x: looking up the tracked accounts failed');
        logger.warn({ provider: 'x', err: failure.message }, 'x: looking up the tracked accounts failed; the last known states stand');
      }
      const result = accounts.map((account) => updated.get(account.configured) ?? account);
      for (const account of accounts) {
        const next = updated.get(account.configured);
        if (next) report(account, next);
      }
      if (updated.size > 0)
        await redis.hset(
          providerKeys.xAccounts(),
          Object.fromEntries([...updated.values()].map((account) => [account.configured.toLowerCase(), JSON.stringify(account)])),
        );
      await writeStates(redis, result);
      if (failure !== undefined && !result.some(readable)) throw failure;
      return result;
    },
  };
}

/** The /metrics gauge's source: tracked accounts by state, replaced as a whole. */
async function writeStates(redis: Redis, accounts: readonly TrackedAccount[]): Promise<void> {
  const counts = Object.fromEntries(ACCOUNT_STATES.map((state) => [state, 0])) as Record<AccountState, number>;
  for (const account of accounts) counts[account.state] += 1;
  await redis.multi().del(providerKeys.xAccountStates()).hset(providerKeys.xAccountStates(), counts).exec();
}
