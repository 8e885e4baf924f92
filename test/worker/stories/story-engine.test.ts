import { expect } from 'chai';
import { StoryEngine, type StoryInput } from '../../../apps/worker/src/stories/engine.js';
import { storyView, type StoryView } from '../../../apps/worker/src/stories/story-view.js';
import { HACK_TEXTS, HOUR, LISTING_TEXTS, START, authors, chatter, event } from './planted-posts.js';

const STEP = HOUR / 2;

/** Refreshes the engine every 30 minutes from `fromMs` to `toMs` over `posts`; the stories after each refresh. */
function run(engine: StoryEngine, posts: readonly StoryInput[], fromMs: number, toMs: number): StoryView[][] {
  const refreshes: StoryView[][] = [];
  for (let now = fromMs; now <= toMs; now += STEP) {
    const visible = posts.filter((post) => post.publishedMs <= now);
    refreshes.push(engine.refresh(visible, now).map(storyView));
  }
  return refreshes;
}

const about = (stories: readonly StoryView[], word: string) => stories.filter((story) => story.terms.some((term) => term.includes(word)));

describe('story engine (bursts of distinct authors, grouped, linked across refreshes)', () => {
  const background = chatter(72);
  const eventAt = START + 66 * HOUR;

  it('when several accounts post about one event, then it becomes one story that keeps its id over the next refreshes', () => {
    const hack = event('hack', authors('witness', 8), HACK_TEXTS, eventAt);
    const refreshes = run(new StoryEngine(), [...background, ...hack], START + HOUR, START + 70 * HOUR);
    const seen = refreshes.map((stories) => about(stories, 'orbiter'));
    expect(seen.every((stories) => stories.length <= 1)).to.equal(true);
    const ids = new Set(seen.flat().map((story) => story.id));
    expect(ids.size).to.equal(1);
    const last = seen.flat().at(-1) as StoryView;
    expect(seen.filter((stories) => stories.length === 1).length).to.be.greaterThan(2);
    expect(last.authors).to.be.at.least(6);
    expect(last.postIds.every((id) => id.startsWith('hack'))).to.equal(true);
    expect(last.title).to.match(/orbiter|drained|exploit/);
    expect(last.firstSeenAt).to.equal(new Date(hack[0]?.publishedMs as number).toISOString());
    expect(Date.parse(last.firstSeenAt)).to.be.at.least(eventAt);
    // Nothing else in the stream is a story.
    expect(refreshes.flat().filter((story) => !story.postIds.every((id) => id.startsWith('hack')))).to.deep.equal([]);
  });

  it('when one loud account posts forty times about something, then no story', () => {
    const loud = Array.from({ length: 40 }, (_, i) => ({
      id: `loud${i}`,
      author: 'shill',
      text: `Moonshot airdrop claim now, ${i + 1} spots left for the moonshot airdrop`,
      publishedMs: eventAt + i * 90_000,
    }));
    const refreshes = run(new StoryEngine(), [...background, ...loud], START + HOUR, START + 70 * HOUR);
    expect(refreshes.flat()).to.deep.equal([]);
  });

  it('when two events happen at once, then they stay two stories, each with its own posts', () => {
    const hack = event('hack', authors('witness', 8), HACK_TEXTS, eventAt);
    const listing = event('listing', authors('trader', 7), LISTING_TEXTS, eventAt);
    const last = run(new StoryEngine(), [...background, ...hack, ...listing], START + HOUR, START + 68 * HOUR).at(-1) as StoryView[];
    expect(last).to.have.length(2);
    const [bridge, zeta] = [about(last, 'orbiter')[0], about(last, 'kraken')[0]];
    expect(bridge?.postIds.every((id) => id.startsWith('hack'))).to.equal(true);
    expect(zeta?.postIds.every((id) => id.startsWith('listing'))).to.equal(true);
    expect(zeta?.tokens).to.deep.equal(['ZETA']);
  });

  it('when the state is saved and a new engine resumes from it, then the story keeps its id', () => {
    const hack = event('hack', authors('witness', 8), HACK_TEXTS, eventAt);
    const posts = [...background, ...hack];
    const first = new StoryEngine();
    const before = run(first, posts, START + HOUR, eventAt + HOUR).at(-1) as StoryView[];
    const resumed = new StoryEngine({}, JSON.parse(JSON.stringify(first.state())) as ReturnType<StoryEngine['state']>);
    const after = run(resumed, posts, eventAt + HOUR + STEP, eventAt + 3 * HOUR).at(-1) as StoryView[];
    expect(before.map((story) => story.id)).to.have.length(1);
    expect(after.map((story) => story.id)).to.deep.equal(before.map((story) => story.id));
  });

  it('when a copy refreshes and is dropped, then the engine it was copied from is as it was, and its next copy refreshes as if the first had not been', () => {
    // The fingerprints as a set: a fingerprint the dropped copy forgot comes back last in the map's order.
    const stateOf = (engine: StoryEngine) => {
      const state = engine.state();
      return JSON.stringify({ ...state, fingerprints: state.fingerprints.map((entry) => JSON.stringify(entry)).sort() });
    };
    const hack = event('hack', authors('witness', 8), HACK_TEXTS, eventAt);
    const posts = [...background, ...hack];
    const engine = new StoryEngine();
    run(engine, posts, START + HOUR, eventAt);
    const kept = stateOf(engine);
    const saved = JSON.parse(JSON.stringify(engine.state())) as ReturnType<StoryEngine['state']>;
    // Two copies dropped in turn (the second a copy of the first), each after refreshes that add and forget fingerprints.
    const dropped = engine.copy();
    run(dropped, posts, eventAt + STEP, eventAt + 2 * HOUR);
    run(dropped.copy(), posts, eventAt + 2 * HOUR + STEP, eventAt + 3 * HOUR);
    const droppedState = stateOf(dropped);
    expect(stateOf(engine)).to.equal(kept);
    // The dropped copy keeps what it did.
    expect(stateOf(dropped)).to.equal(droppedState);
    const copy = engine.copy();
    const replayed = new StoryEngine({}, saved);
    for (let now = eventAt + STEP; now <= eventAt + 2 * HOUR; now += STEP) {
      const visible = posts.filter((post) => post.publishedMs <= now);
      expect(JSON.stringify(copy.refresh(visible, now))).to.equal(JSON.stringify(replayed.refresh(visible, now)));
    }
    expect(stateOf(copy)).to.equal(stateOf(replayed));
    expect(stateOf(engine)).to.equal(kept);
  });
});
