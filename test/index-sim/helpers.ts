// Shared helpers for the index simulator tests: a fixed clock and a small JSON client.

import { type Simulator, type SimulatorOptions, startSimulator } from '../../apps/index-sim/src/server.js';

/** A fixed wall clock, so bodies are comparable between simulators and runs. */
export const NOW = Date.parse('2026-11-21T10:00:00.000Z');

export interface JsonResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body; undefined when the body is not JSON. */
  body: unknown;
}

export async function request(url: string, init: RequestInit = {}): Promise<JsonResponse> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000), ...init });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** GET that expects a 200 and returns the parsed body typed as the caller says. */
export async function getOk<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await request(url, init);
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${res.text}`);
  return res.body as T;
}

export function startAt(options: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ now: () => NOW, ...options });
}

export interface Post {
  id: string;
  text: string;
  author: { username: string; followers: number };
  created_at: string;
  tokens: string[];
  engagement: number;
}

export interface PostsPage {
  posts: Post[];
  next_cursor: string | null;
}

export interface TrendingToken {
  symbol: string;
  name: string;
  mentions: number;
  smart_mentions: number;
  price_change_24h: number;
}

export interface Contract {
  address: string;
  chain: string;
  mentions: number;
  smart_mentions: number;
  first_seen_at: string;
}

export interface AccountBody {
  username: string;
  score: number;
  smart_rank: number;
  posts_count: number;
  avg_engagement: number;
  top_tokens: string[];
}

/** Follows next_cursor to the end; returns every post and the number of pages. */
export async function allPosts(base: string, query = 'limit=500'): Promise<{ posts: Post[]; pages: number }> {
  const posts: Post[] = [];
  let pages = 0;
  let cursor: string | null = null;
  do {
    const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page: PostsPage = await getOk<PostsPage>(`${base}/v1/posts?${query}${suffix}`);
    posts.push(...page.posts);
    cursor = page.next_cursor;
    pages++;
    if (pages > 1000) throw new Error('cursor never ends');
  } while (cursor !== null);
  return { posts, pages };
}
