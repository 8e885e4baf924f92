/**
 * The one table of the shared snapshot kinds: what the worker and the API both need of each
 * kind. Everything that lists the kinds is derived from here (SNAPSHOTS, the refresh jobs and
 * their schedules, the stream topics, the API's cached views), keyed by the kind's name, so the
 * compiler checks that they agree. The API's reads of them are apps/api/src/market/reads.ts.
 * docs/adding-a-snapshot-kind.md walks through adding one.
 */
import type { z } from 'zod';
import type { SeriesEntry } from './history/history-store.js';
import { historyKeys } from './keyspace.js';
import { TrendingCaListSchema, TrendingCaSchema, TrendingTokenListSchema, TrendingTokenSchema } from './market-types.js';

/** How the API prepares a snapshot for serving (apps/api/src/market/snapshot-cache.ts builds each). */
export type ViewKind = 'whole' | 'pages' | 'byToken';

/** An error message a read can answer, and when: the OpenAPI document lists each (message, condition). */
export type ErrorCase = readonly [message: string, condition: string];

/** What the OpenAPI document says of a read; the statuses every read shares are added there. */
export interface ReadDoc {
  summary: string;
  description: string;
  /** The 200's description. */
  ok: string;
  /** Statuses specific to the read. 503 replaces "Data temporarily unavailable" (the snapshot's). */
  errors: Partial<Record<400 | 404 | 429 | 503, readonly ErrorCase[]>>;
}

/** The MCP tool that mirrors a read (apps/api/src/mcp/tools.ts makes one per read that has it; its input follows `serve`). */
export interface ToolDoc {
  name: string;
  title: string;
  description: string;
}

/**
 * A ranked list refreshed whole from the upstream, stored as the exact response body and served
 * as it is, with `?at=` from its history. Its read is derived from this (path `/api/market/<kind>`).
 */
export interface ListSpec<Item, Upstream extends string = string> {
  /**
   * The provider call that fetches it: the worker's provider interface has a method of this name
   * per list kind (apps/worker/src/providers/market-provider.ts), also the `call` label of its metrics.
   */
  upstream: Upstream;
  item: z.ZodType<Item>;
  response: z.ZodType;
  doc: Omit<ReadDoc, 'errors'>;
  tool: ToolDoc;
  /** What each refresh appends to history besides the body itself: one entry per listed item. */
  items: (data: readonly Item[]) => SeriesEntry[];
}

function list<Item, Upstream extends string>(spec: ListSpec<Item, Upstream>): ListSpec<Item, Upstream> {
  return spec;
}

/**
 * The snapshots the worker refreshes, in the order they are reported. Each kind is also a
 * stream topic of GET /api/market/stream, announced on the snapshot channel under its name.
 */
export const SNAPSHOT_KINDS = {
  trending: {
    /** The BullMQ job that rebuilds it; every refresh job runs every REFRESH_INTERVAL (apps/worker/src/schedules.ts). */
    refreshJob: 'refresh-trending',
    view: 'whole',
    /** The history stream its events are read from: `historyKeys.events(<events>)` in keyspace.ts, field `b` = the event's data. */
    events: 'trending',
    list: list({
      upstream: 'trendingTokens',
      item: TrendingTokenSchema,
      response: TrendingTokenListSchema,
      doc: {
        summary: 'Top trending tokens',
        description:
          'Ranked by smart money social activity. Cached for 30 minutes (one shared entry). ' +
          'With `at`, the snapshot that was current at that instant, from history (HISTORY_DAYS, default 30).',
        ok: 'Trending tokens and the time of the last cache refresh.',
      },
      tool: {
        name: 'trending_tokens',
        title: 'Trending tokens',
        description:
          'Tokens ranked by smart-money social activity right now (or at a past instant with `at`): ticker, name, mentions, ' +
          'smart-money mentions, 24 h price change. Refreshed every 30 minutes; `cachedAt` says when.',
      },
      // The refresh times (GET /api/market/tokens/:token/history counts a token's absences), and each token's figures.
      items: (data): SeriesEntry[] => [
        { key: historyKeys.trendingTimes(), fields: ['n', data.length] },
        ...data.map((item, index) => ({
          key: historyKeys.series('token', item.token.toUpperCase()),
          fields: ['r', index + 1, 'm', item.mentions, 's', item.smartMoneyMentions, 'p', item.priceChange24h],
        })),
      ],
    }),
  },
  'trending-cas': {
    refreshJob: 'refresh-trending-cas',
    view: 'whole',
    events: 'trending-cas',
    list: list({
      upstream: 'trendingContracts',
      item: TrendingCaSchema,
      response: TrendingCaListSchema,
      doc: {
        summary: 'Trending contract addresses',
        description:
          'Cached for 30 minutes (one shared entry). ' +
          'With `at`, the snapshot that was current at that instant, from history (HISTORY_DAYS, default 30).',
        ok: 'Trending contract addresses and the time of the last cache refresh.',
      },
      tool: {
        name: 'trending_contracts',
        title: 'Trending contract addresses',
        description:
          'Contract addresses most mentioned by tracked accounts right now (or at a past instant with `at`): address, chain, ' +
          'mentions, smart-money mentions, first seen. Refreshed every 30 minutes; `cachedAt` says when.',
      },
      items: (data): SeriesEntry[] =>
        data.map((item) => ({
          key: historyKeys.series('ca', item.address),
          fields: ['c', item.chain, 'm', item.mentions, 's', item.smartMoneyMentions],
        })),
    }),
  },
  news: { refreshJob: 'refresh-news', view: 'pages', events: 'news-events' },
  // Computed from the news posts, in the same refresh.
  sentiment: { refreshJob: 'refresh-news', view: 'byToken', events: 'sentiment-events' },
} as const;

export type SnapshotName = keyof typeof SNAPSHOT_KINDS;
type Kind<N extends SnapshotName> = (typeof SNAPSHOT_KINDS)[N];

const names = <K extends string>(record: Record<K, unknown>) => Object.keys(record) as K[];

export const SNAPSHOTS: readonly SnapshotName[] = names(SNAPSHOT_KINDS);

export type RefreshJobName = Kind<SnapshotName>['refreshJob'];
/** Each refresh job once, in table order. */
export const REFRESH_JOBS: readonly RefreshJobName[] = [...new Set(SNAPSHOTS.map((name) => SNAPSHOT_KINDS[name].refreshJob))];

/** The snapshot a refresh job writes first (the first kind it rebuilds): its absence means the job must run now. */
export const FIRST_SNAPSHOT_OF = Object.fromEntries(
  [...SNAPSHOTS].reverse().map((name) => [SNAPSHOT_KINDS[name].refreshJob, name]),
) as Readonly<Record<RefreshJobName, SnapshotName>>;

export type ViewOfKind<N extends SnapshotName> = Kind<N>['view'];

/** The list kinds, and the item type of each. */
export type ListKind = { [N in SnapshotName]: Kind<N> extends { list: object } ? N : never }[SnapshotName];
export type ListItem<N extends ListKind> = Kind<N>['list'] extends ListSpec<infer Item, string> ? Item : never;
export type ListUpstream<N extends ListKind> = Kind<N>['list']['upstream'];
export type ListRefreshJob = Kind<ListKind>['refreshJob'];
export const LIST_KINDS: readonly ListKind[] = SNAPSHOTS.filter((name): name is ListKind => 'list' in SNAPSHOT_KINDS[name]);

/** A list's spec, typed by its kind. */
export function listOf<N extends ListKind>(name: N): ListSpec<ListItem<N>, ListUpstream<N>> {
  return SNAPSHOT_KINDS[name].list as unknown as ListSpec<ListItem<N>, ListUpstream<N>>;
}

/** What a list refresh appends to history: its body (the `?at=` reads and the stream events), then its items' figures. */
export function listHistory<N extends ListKind>(name: N, body: string, data: readonly ListItem<N>[]): SeriesEntry[] {
  return [{ key: historyKeys.events(SNAPSHOT_KINDS[name].events), fields: ['b', body] }, ...listOf(name).items(data)];
}

export type Topic = SnapshotName;
export const TOPICS = SNAPSHOTS;
export type EventStream = Kind<SnapshotName>['events'];
