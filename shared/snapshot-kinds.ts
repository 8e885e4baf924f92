/**
 * The one table of the shared snapshot kinds: what the worker and the API both need of each kind.
 * Everything that lists the kinds is derived from it, keyed by the kind's name, so the compiler
 * checks that they agree (docs/adding-a-snapshot-kind.md; the API's reads: apps/api/src/market/reads.ts).
 */
import type { z } from 'zod';
import { TrendingCaSchema, TrendingTokenSchema } from './market-types.js';
import { DEFAULT_WINDOW, EXTRA_WINDOWS, type ExtraWindow, type TrendingWindow } from './trending-windows.js';

/** How the API prepares a snapshot for serving (apps/api/src/market/snapshot-cache.ts builds each). */
export type ViewKind = 'whole' | 'pages' | 'byToken' | 'byWindow' | 'stories';

/**
 * A kind's history series, by name: the one-letter fields each point has, in the order they are
 * stored (docs/decisions.md#d11). A series lives in its kind's refresh slot (shared/snapshot-keys.ts).
 */
export type SeriesFields = Readonly<Record<string, readonly string[]>>;

/** One point a refresh appends to one of its kind's series: the item's id (none for a series of the refresh itself), a value per declared field. */
export type SeriesPoint<Series extends SeriesFields> = {
  [S in keyof Series & string]: { series: S; id?: string; values: Readonly<Record<Series[S][number], string | number>> };
}[keyof Series & string];

/** What one refresh of a list kind costs with INDEX_PROVIDER=composite (Elfa bills 1 credit a request; apps/worker/src/providers/elfa-budget.ts). */
export interface UpstreamCost {
  source: 'elfa' | 'coingecko' | 'x';
  credits: number;
}

/** A ranked list refreshed whole from the upstream, stored as the exact response body and served as it is, with `?at=` from its history. */
export interface ListSpec<Item, Upstream extends string = string, Series extends SeriesFields = SeriesFields> {
  /** The provider call that fetches it (a method of apps/worker/src/providers/market-provider.ts), also its metrics' `call` label. */
  upstream: Upstream;
  cost: UpstreamCost;
  item: z.ZodType<Item>;
  /** What each refresh appends to history besides the body itself: points of the kind's series. */
  items: (data: readonly Item[]) => SeriesPoint<Series>[];
  /** The window the upstream counts over, for a windowed variant (`trending@1h`); absent: the 24 hours. */
  window?: ExtraWindow;
}

interface KindSpec<Series extends SeriesFields> {
  /** The BullMQ job that rebuilds it; every refresh job runs every REFRESH_INTERVAL (apps/worker/src/schedules.ts). */
  refreshJob: string;
  view: ViewKind;
  /** The history stream its events are appended to, field `b` = the event's data (historyKeys.events). */
  events: string;
  series: Series;
}

/** A list kind: its series' type checks what `items` appends. */
function listKind<
  const Job extends string,
  const Events extends string,
  const Series extends SeriesFields,
  Item,
  const Upstream extends string,
>(kind: KindSpec<Series> & { refreshJob: Job; view: 'whole'; events: Events; list: ListSpec<Item, Upstream, Series> }) {
  return kind;
}

/**
 * A list kind's windowed variants (`trending@1h`, ...; shared/trending-windows.ts): each a kind
 * with its own refresh job and events stream, and no series of its own (the token and sentiment
 * series stay the 24 h list's). Only the windows in TRENDING_WINDOWS are refreshed (activeSnapshots).
 */
function windowedKinds<const Name extends string, Item, const Upstream extends string>(
  name: Name,
  list: Pick<ListSpec<Item, Upstream>, 'upstream' | 'cost' | 'item'>,
) {
  type Windowed = {
    [W in ExtraWindow as `${Name}@${W}`]: {
      refreshJob: `refresh-${Name}@${W}`;
      view: 'whole';
      events: `${Name}@${W}`;
      series: Record<never, readonly string[]>;
      list: ListSpec<Item, Upstream, Record<never, readonly string[]>> & { window: W };
    };
  };
  return Object.fromEntries(
    EXTRA_WINDOWS.map((window) => [
      `${name}@${window}`,
      {
        refreshJob: `refresh-${name}@${window}`,
        view: 'whole',
        events: `${name}@${window}`,
        series: {},
        list: { ...list, window, items: () => [] },
      },
    ]),
  ) as unknown as Windowed;
}

const TRENDING_LIST = {
  upstream: 'trendingTokens',
  cost: { source: 'elfa', credits: 1 },
  item: TrendingTokenSchema,
} as const;
const TRENDING_CAS_LIST = {
  upstream: 'trendingContracts',
  // Two trending-cas requests: the Twitter and the Telegram lists.
  cost: { source: 'elfa', credits: 2 },
  item: TrendingCaSchema,
} as const;

/**
 * The snapshots the worker refreshes, in the order they are reported. Each kind is also a
 * stream topic of GET /api/market/stream, announced on the snapshot channel under its name.
 */
export const SNAPSHOT_KINDS = {
  trending: listKind({
    refreshJob: 'refresh-trending',
    view: 'whole',
    events: 'trending',
    series: {
      /** One tiny point per refresh (n = list length): the refresh times, which GET /api/market/tokens/:token/history counts absences by. */
      'trending-times': ['n'],
      /** One token's figures: r(ank), m(entions), s(mart money), p(rice change). */
      token: ['r', 'm', 's', 'p'],
    },
    list: {
      ...TRENDING_LIST,
      items: (data) => [
        { series: 'trending-times' as const, values: { n: data.length } },
        ...data.map((item, index) => ({
          series: 'token' as const,
          id: item.token.toUpperCase(),
          values: { r: index + 1, m: item.mentions, s: item.smartMoneyMentions, p: item.priceChange24h },
        })),
      ],
    },
  }),
  'trending-cas': listKind({
    refreshJob: 'refresh-trending-cas',
    view: 'whole',
    events: 'trending-cas',
    series: { ca: ['c', 'm', 's'] },
    list: {
      ...TRENDING_CAS_LIST,
      items: (data) =>
        data.map((item) => ({
          series: 'ca' as const,
          id: item.address,
          values: { c: item.chain, m: item.mentions, s: item.smartMoneyMentions },
        })),
    },
  }),
  ...windowedKinds('trending', TRENDING_LIST),
  ...windowedKinds('trending-cas', TRENDING_CAS_LIST),
  news: { refreshJob: 'refresh-news', view: 'pages', events: 'news-events', series: {} },
  // Computed from the news posts, in the same refresh.
  sentiment: {
    refreshJob: 'refresh-news',
    view: 'byToken',
    events: 'sentiment-events',
    /** One token's record at each news refresh it was mentioned: s(core), l(abel), m(entions), p(ositive), u (neutral), n(egative). */
    series: { sentiment: ['s', 'l', 'm', 'p', 'u', 'n'] },
  },
  // Counted from the news posts into hourly buckets, in the same refresh (docs/decisions.md#d20).
  mindshare: { refreshJob: 'refresh-news', view: 'byWindow', events: 'mindshare-events', series: {} },
  // Detected from the news posts by the story engine, in the same refresh (docs/decisions.md#d23).
  stories: { refreshJob: 'refresh-news', view: 'stories', events: 'stories-events', series: {} },
} as const satisfies Record<string, KindSpec<SeriesFields>>;

export type SnapshotName = keyof typeof SNAPSHOT_KINDS;
type Kind<N extends SnapshotName> = (typeof SNAPSHOT_KINDS)[N];

export const SNAPSHOTS = Object.keys(SNAPSHOT_KINDS) as readonly SnapshotName[];

export type RefreshJobName = Kind<SnapshotName>['refreshJob'];
/** Each refresh job once, in table order. */
export const REFRESH_JOBS: readonly RefreshJobName[] = [...new Set(SNAPSHOTS.map((name) => SNAPSHOT_KINDS[name].refreshJob))];

/** The snapshot a refresh job writes first (the first kind it rebuilds): its absence means the job must run now. */
export const FIRST_SNAPSHOT_OF = Object.fromEntries(
  [...SNAPSHOTS].reverse().map((name) => [SNAPSHOT_KINDS[name].refreshJob, name]),
) as Readonly<Record<RefreshJobName, SnapshotName>>;

export type ViewOfKind<N extends SnapshotName> = Kind<N>['view'];

/** Every kind's series names, and the fields of each. */
export type SeriesName = { [N in SnapshotName]: keyof Kind<N>['series'] & string }[SnapshotName];
export type SeriesFieldsOf<S extends SeriesName> = {
  [N in SnapshotName]: Kind<N>['series'] extends Readonly<Record<S, infer Fields extends readonly string[]>> ? Fields : never;
}[SnapshotName];
/** A value for each field of one series: what a point of it carries. */
export type SeriesValues<S extends SeriesName> = Readonly<Record<SeriesFieldsOf<S>[number], string | number>>;

/** The kind that owns each series (the series lives in its refresh's slot); a name declared twice stops the process at load. */
const declaredSeries = SNAPSHOTS.flatMap((name) => Object.keys(SNAPSHOT_KINDS[name].series).map((series) => [series, name]));
export const SERIES_OWNER = Object.fromEntries(declaredSeries) as Readonly<Record<SeriesName, SnapshotName>>;
if (Object.keys(SERIES_OWNER).length !== declaredSeries.length)
  throw new Error(`a history series is declared by two kinds: ${declaredSeries.map(([series]) => series).join(', ')}`);

/** A series' fields, in their stored order. */
export function seriesFields(series: SeriesName): readonly string[] {
  const declared: SeriesFields = SNAPSHOT_KINDS[SERIES_OWNER[series]].series;
  return declared[series] ?? [];
}

/** The list kinds, and the item type of each. */
export type ListKind = { [N in SnapshotName]: Kind<N> extends { list: object } ? N : never }[SnapshotName];
export type ListItem<N extends ListKind> = Kind<N>['list'] extends ListSpec<infer Item, string, SeriesFields> ? Item : never;
export type ListUpstream<N extends ListKind> = Kind<N>['list']['upstream'];
export type ListRefreshJob = Kind<ListKind>['refreshJob'];
export const LIST_KINDS: readonly ListKind[] = SNAPSHOTS.filter((name): name is ListKind => 'list' in SNAPSHOT_KINDS[name]);

/** A list's spec, typed by its kind. */
export function listOf<N extends ListKind>(name: N): ListSpec<ListItem<N>, ListUpstream<N>, Kind<N>['series']> {
  return SNAPSHOT_KINDS[name].list as unknown as ListSpec<ListItem<N>, ListUpstream<N>, Kind<N>['series']>;
}

/** The windowed variants of the list kinds (`trending@1h`), and the list kinds served at a path of their own (`trending`). */
export type WindowedKind = { [N in ListKind]: Kind<N>['list'] extends { window: string } ? N : never }[ListKind];
export type BaseListKind = Exclude<ListKind, WindowedKind>;
export const BASE_LIST_KINDS: readonly BaseListKind[] = LIST_KINDS.filter(
  (name): name is BaseListKind => !('window' in SNAPSHOT_KINDS[name].list),
);

/** The snapshot of a list at a window: the list itself at 24 h, its windowed variant otherwise. */
export function windowedKind(base: BaseListKind, window: TrendingWindow): ListKind {
  return window === DEFAULT_WINDOW ? base : (`${base}@${window}` as WindowedKind);
}

/** The window a list kind counts over. */
export function windowOf(name: ListKind): TrendingWindow {
  return (listOf(name) as { window?: ExtraWindow }).window ?? DEFAULT_WINDOW;
}

/** The snapshots refreshed and served with these TRENDING_WINDOWS: every kind but the windows not configured. */
export function activeSnapshots(windows: readonly TrendingWindow[]): readonly SnapshotName[] {
  return SNAPSHOTS.filter((name) => !('list' in SNAPSHOT_KINDS[name]) || windows.includes(windowOf(name as ListKind)));
}

/** Their refresh jobs, each once, in table order. */
export function activeRefreshJobs(windows: readonly TrendingWindow[]): readonly RefreshJobName[] {
  return [...new Set(activeSnapshots(windows).map((name) => SNAPSHOT_KINDS[name].refreshJob))];
}
