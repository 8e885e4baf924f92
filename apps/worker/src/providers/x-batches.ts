/**
 * The tracked accounts' posts in batches, one recent search per batch within X's query length,
 * and what each account has read (docs/providers.md, "1,000 tracked accounts" and "No post skipped").
 */

export interface ReadState {
  /** The newest post id read for this account (or for its batch: any post newer is unread), the next `since_id`. */
  since?: string;
  /** `created_at` of `since`: a `since` older than the window is replaced by `start_time`. */
  sinceAt?: string;
  /** Posts newer than `after` (or the window's start) and older than `before` are still to read: a search the budget cut short. */
  hole?: { after?: string; afterAt?: string; before: string; beforeAt: string };
  /** When its batch was last searched (ms): the least recently read batches go first. */
  readAt?: number;
}

export interface BatchMember {
  id: string;
  username: string;
}

/** `(from:a OR from:b) -is:retweet`: the parentheses keep `-is:retweet` applying to every clause. */
export function batchQuery(usernames: readonly string[]): string {
  return `(${usernames.map((name) => `from:${name}`).join(' OR ')}) -is:retweet`;
}

/** The accounts packed in order (by id, so a batch keeps its members when one is renamed) into queries of at most `maxLength` characters. */
export function batchesOf<Member extends BatchMember>(accounts: readonly Member[], maxLength: number): Member[][] {
  const sorted = [...accounts].sort((a, b) => compareIds(a.id, b.id));
  const batches: Member[][] = [];
  let current: Member[] = [];
  for (const account of sorted) {
    if (current.length > 0 && batchQuery([...current, account].map((member) => member.username)).length > maxLength) {
      batches.push(current);
      current = [];
    }
    current.push(account);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** Post and user ids are 64-bit integers in decimal: compare by length, then digits. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

export const minId = (ids: readonly (string | undefined)[]): string | undefined =>
  ids.some((id) => id === undefined) ? undefined : ids.reduce((a, b) => (compareIds(a!, b!) <= 0 ? a : b));
export const maxId = (ids: readonly string[]): string | undefined =>
  ids.length === 0 ? undefined : ids.reduce((a, b) => (compareIds(a, b) >= 0 ? a : b));

/** The lower bound of a search over `states`: `since_id` when every member has one within the window, else `start_time` (the window's start). */
export function lowerBound(
  bounds: readonly { id?: string; at?: string }[],
  windowStart: Date,
): { since_id: string } | { start_time: string } {
  const within = bounds.every((bound) => bound.id !== undefined && bound.at !== undefined && Date.parse(bound.at) >= windowStart.getTime());
  const since = within ? minId(bounds.map((bound) => bound.id)) : undefined;
  return since ? { since_id: since } : { start_time: windowStart.toISOString().replace(/\.\d{3}Z$/, 'Z') };
}

/** Merges a new unread range into an account's hole (the union: some posts may be read twice, none skipped). */
export function mergeHole(existing: ReadState['hole'], added: NonNullable<ReadState['hole']>): NonNullable<ReadState['hole']> {
  if (!existing) return added;
  const after = minId([existing.after, added.after]);
  const later = compareIds(existing.before, added.before) >= 0 ? existing : added;
  return {
    ...(after ? { after, afterAt: after === existing.after ? existing.afterAt : added.afterAt } : {}),
    before: later.before,
    beforeAt: later.beforeAt,
  };
}
