/**
 * How each kind of market read (`serve` in apps/api/src/market/reads.ts) is answered: `peek` from memory,
 * synchronously, for the fast path (undefined when the answer needs Redis or the worker), and
 * `get` for Koa and the MCP tools. All parse the same input with the same functions, so they
 * agree on what is valid; invalid input throws the 400 (the fast path then leaves the request to Koa).
 */
import type { ParsedUrlQuery } from 'node:querystring';
import { NotFoundError, UnavailableError } from '../../../../shared/errors.js';
import { parseHistoryQuery, parseInstant, parseNewsQuery, parseTokenParam, parseUsernameParam, parseWindow } from './market-queries.js';
import { windowedKind, type ListKind } from '../../../../shared/snapshot-kinds.js';
import type { TrendingWindow } from '../../../../shared/trending-windows.js';
import type { HistoryService } from './history-service.js';
import type { ReadOf, ReadSpec, ServeKind } from './read-spec.js';
import type { ReadAnswer, Representation } from '../http/representation.js';
import { secondsLeft, type CachedSnapshot, type SnapshotCache, type ViewOf } from './snapshot-cache.js';
import { parseMindshareInterval, parseMindshareWindow } from './mindshare-queries.js';
import { parseStoriesQuery, parseStoryId } from './stories-queries.js';
import type { MindshareService } from './mindshare-service.js';
import type { CallersReads } from './callers-reads.js';
import type { ChargeMiss, StatsService } from './stats-service.js';

export interface ReadInput {
  /** The route's parameters, decoded. */
  params: Readonly<Record<string, string | undefined>>;
  query: ParsedUrlQuery;
}

export interface Resolver<R extends ReadSpec = ReadSpec> {
  peek(read: R, input: ReadInput): ReadAnswer | undefined;
  get(read: R, input: ReadInput, chargeMiss: ChargeMiss): Promise<ReadAnswer>;
}

/** A read with its resolver: what the routes, the fast path and the MCP tools call. */
export interface BoundRead {
  peek(input: ReadInput): ReadAnswer | undefined;
  get(input: ReadInput, chargeMiss: ChargeMiss): Promise<ReadAnswer>;
}

/** The services the reads are answered from (deps.ts builds the resolvers from them, once per process). */
interface Deps {
  snapshots: SnapshotCache;
  stats: StatsService;
  history: HistoryService;
  mindshare: MindshareService;
  /** The callers reads and the stats' `calls` (docs/decisions.md#callers). */
  callers: CallersReads;
  /** TRENDING_WINDOWS: the windows the list reads serve. */
  windows: readonly TrendingWindow[];
}

export type Resolvers = { readonly [S in ServeKind]: Resolver<ReadOf<S>> };

/** `read` with the resolver of its kind of answer (`Resolvers` pairs each `serve` with its own). */
export function boundRead(resolvers: Resolvers, read: ReadSpec): BoundRead {
  const resolver = resolvers[read.serve] as Resolver;
  return {
    peek: (input) => resolver.peek(read, input),
    get: (input, chargeMiss) => resolver.get(read, input, chargeMiss),
  };
}

const answerOf = (snapshot: CachedSnapshot<unknown>, representation: Representation): ReadAnswer => ({
  representation,
  maxAgeSeconds: secondsLeft(snapshot.expiresAt),
});

export function resolvers({ snapshots, stats, history, mindshare, callers, windows }: Deps): Resolvers {
  const mindshareQuery = (query: ParsedUrlQuery) => {
    const window = parseMindshareWindow(query.window);
    return { window, interval: parseMindshareInterval(query.interval, window) };
  };
  const mindshareList = (snapshot: CachedSnapshot<ViewOf<'mindshare'>>, query: ParsedUrlQuery): ReadAnswer => {
    const representation = snapshot.view.byWindow.get(parseMindshareWindow(query.window));
    if (!representation) throw new UnavailableError('Data temporarily unavailable', 10);
    return answerOf(snapshot, representation);
  };
  /** The snapshot of a list read at its `?window=` (the read's own at 24 h); a window not configured is a 400. */
  const listSnapshot = (read: ReadOf<'list'>, query: ParsedUrlQuery): ListKind =>
    windowedKind(read.snapshot, parseWindow(query.window, windows));

  const newsPage = (snapshot: CachedSnapshot<ViewOf<'news'>>, { page, limit, token }: ReturnType<typeof parseNewsQuery>) =>
    answerOf(snapshot, snapshot.view.pages.page(page, limit, token));

  return {
    list: {
      // `?at=` reads history: only Koa answers it.
      peek(read, { query }) {
        const snapshot = query.at === undefined ? snapshots.peek(listSnapshot(read, query)) : undefined;
        return snapshot && answerOf(snapshot, snapshot.view.representation);
      },
      async get(read, { query }) {
        const name = listSnapshot(read, query);
        const at = parseInstant(query.at, 'at');
        if (at !== undefined) return history.snapshotAt(name, at);
        const snapshot = await snapshots.get(name);
        return answerOf(snapshot, snapshot.view.representation);
      },
    },
    'news-page': {
      peek(_read, { query }) {
        const snapshot = snapshots.peek('news');
        return snapshot && newsPage(snapshot, parseNewsQuery(query));
      },
      async get(_read, { query }) {
        const news = parseNewsQuery(query);
        return newsPage(await snapshots.get('news'), news);
      },
    },
    'token-record': {
      peek(_read, { params }) {
        const token = parseTokenParam(params.token);
        const snapshot = snapshots.peek('sentiment');
        const representation = snapshot?.view.byToken.get(token);
        return snapshot && representation && answerOf(snapshot, representation);
      },
      async get(_read, { params }) {
        const token = parseTokenParam(params.token);
        const snapshot = await snapshots.get('sentiment');
        const representation = snapshot.view.byToken.get(token);
        if (!representation) throw new NotFoundError('Token not found in index');
        return answerOf(snapshot, representation);
      },
    },
    'username-stats': {
      peek(_read, { params }) {
        const username = parseUsernameParam(params.username);
        return callers.statsWithCalls.peek(username, stats.peek(username));
      },
      // A miss asks the upstream: it is charged to the client's address (chargeMiss), and its
      // answer (200, 404 or 503) tells the client what is left of the budget.
      async get(_read, { params }, chargeMiss) {
        const username = parseUsernameParam(params.username);
        return callers.statsWithCalls.get(username, await stats.get(username, chargeMiss));
      },
    },
    'token-callers': {
      peek: (_read, { params, query }) => callers.tokenCallers.peek(params, query),
      get: (_read, { params, query }) => callers.tokenCallers.get(params, query),
    },
    callers: {
      peek: (_read, { query }) => callers.leaderboard.peek(query),
      get: (_read, { query }) => callers.leaderboard.get(query),
    },
    mindshare: {
      peek(_read, { query }) {
        const snapshot = snapshots.peek('mindshare');
        return snapshot && mindshareList(snapshot, query);
      },
      get: async (_read, { query }) => mindshareList(await snapshots.get('mindshare'), query),
    },
    'token-mindshare': {
      peek: (_read, { params, query }) => mindshare.peek(parseTokenParam(params.token), mindshareQuery(query)),
      get: (_read, { params, query }) => mindshare.get(parseTokenParam(params.token), mindshareQuery(query)),
    },
    stories: {
      peek(_read, { query }) {
        if (query.at !== undefined) return undefined;
        const { window, token } = parseStoriesQuery(query);
        const snapshot = snapshots.peek('stories');
        return snapshot && answerOf(snapshot, snapshot.view.stories.list(window, token));
      },
      async get(_read, { query }) {
        const { window, token } = parseStoriesQuery(query);
        const at = parseInstant(query.at, 'at');
        if (at !== undefined) return history.snapshotAt('stories', at);
        const snapshot = await snapshots.get('stories');
        return answerOf(snapshot, snapshot.view.stories.list(window, token));
      },
    },
    story: {
      peek(_read, { params }) {
        const id = parseStoryId(params.id);
        const [snapshot, news] = [snapshots.peek('stories'), snapshots.peek('news')];
        const representation =
          snapshot && news && snapshot.view.stories.story(id, news.version, (ids) => news.view.pages.postsWithIds(ids));
        return snapshot && representation && answerOf(snapshot, representation);
      },
      async get(_read, { params }) {
        const id = parseStoryId(params.id);
        const [snapshot, news] = await Promise.all([snapshots.get('stories'), snapshots.get('news')]);
        const representation = snapshot.view.stories.story(id, news.version, (ids) => news.view.pages.postsWithIds(ids));
        if (!representation) throw new NotFoundError('Story not found');
        return answerOf(snapshot, representation);
      },
    },
    history: {
      peek: (read, { params, query }) => history.peek(read.series, parseTokenParam(params.token), parseHistoryQuery(query)),
      get: async (read, { params, query }) => history.series(read.series, parseTokenParam(params.token), parseHistoryQuery(query)),
    },
  };
}
