/**
 * The stories snapshot prepared for serving (docs/decisions.md#d23): each window's ranked list
 * ready as an answer, a token's list built on first ask and kept, and each story by id (its answer
 * kept too, until the news it quotes moves on).
 */
import type { NewsItem, Snapshot } from '../../../../shared/market-types.js';
import { STORY_WINDOWS, type StoriesSnapshotData, type Story, type StoryWindow } from '../../../../shared/stories.js';
import { boundedCache } from '../cache/bounded-cache.js';
import { Representation } from '../http/representation.js';

/** Token lists kept per snapshot: one per token asked, the rest rebuilt. */
const MAX_TOKEN_LISTS = 200;

export class StoriesView {
  private readonly lists: ReadonlyMap<StoryWindow, Representation>;
  private readonly byId = new Map<string, Story>();
  private readonly tokenLists = boundedCache<string, Representation>({ max: MAX_TOKEN_LISTS });
  /** Each listed story's answer, with the news snapshot its posts came from (at most one per listed story). */
  private readonly answers = new Map<string, { postsVersion: string; representation: Representation }>();

  constructor(private readonly snapshot: Snapshot<StoriesSnapshotData>) {
    const { windows } = snapshot.data;
    this.lists = new Map(STORY_WINDOWS.map((window) => [window, this.answer(window, windows[window] ?? [])]));
    for (const window of STORY_WINDOWS) for (const story of windows[window] ?? []) this.byId.set(story.id, story);
  }

  private answer(window: StoryWindow, data: readonly Story[]): Representation {
    return Representation.json({ window, data, cachedAt: this.snapshot.cachedAt });
  }

  /** The window's stories ranked by score, of those naming `token` if given (upper case, no `$`). */
  list(window: StoryWindow, token?: string): Representation {
    if (token === undefined) return this.lists.get(window) as Representation;
    const key = `${window}:${token}`;
    let representation = this.tokenLists.get(key);
    if (!representation) {
      const stories = (this.snapshot.data.windows[window] ?? []).filter((story) => story.tokens.includes(token));
      this.tokenLists.set(key, (representation = this.answer(window, stories)));
    }
    return representation;
  }

  /**
   * One story with its score over time and its posts still held (newest first), or undefined. Its
   * answer is built once per news snapshot (`postsVersion`) and kept: built per request, its
   * serialising and compression cost 40 cached reads.
   */
  story(id: string, postsVersion: string, posts: (ids: readonly string[]) => NewsItem[]): Representation | undefined {
    const story = this.byId.get(id);
    if (!story) return undefined;
    const kept = this.answers.get(id);
    if (kept?.postsVersion === postsVersion) return kept.representation;
    const scores = this.snapshot.data.scores[id] ?? [];
    const representation = Representation.json({
      data: { ...story, scores },
      posts: posts(story.postIds),
      cachedAt: this.snapshot.cachedAt,
    });
    this.answers.set(id, { postsVersion, representation });
    return representation;
  }
}
