/** A storyline as readers see it: a title of its top units (no generated prose), its terms, tokens and status. */
import type { Storyline } from './storylines.js';

export type StoryStatus = 'emerging' | 'peaking' | 'fading';

export interface StoryView {
  id: string;
  parentId?: string;
  title: string;
  terms: string[];
  tokens: string[];
  contracts: string[];
  posts: number;
  postIds: string[];
  authors: number;
  firstPoster: string;
  firstSeenAt: string;
  peakAt: string;
  lastSeenAt: string;
  status: StoryStatus;
  score: number;
  scoreChange: number;
  sentiment: number;
}

const TITLE_UNITS = 3;
const TERMS = 10;
/** A token or contract belongs to a story when at least this share of its posts name it. */
const NAMED_SHARE = 0.25;

const isTerm = (unit: string) => !unit.startsWith('$') && !unit.startsWith('ca:');

/** Terms by weight, a pair before its own words when it carries at least half a word's weight. */
export function rankedTerms(weights: Readonly<Record<string, number>>): string[] {
  const sorted = Object.entries(weights)
    .filter(([unit]) => isTerm(unit))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const pairs = sorted.filter(([unit]) => unit.includes(' '));
  const ranked: string[] = [];
  for (const [unit, weight] of sorted) {
    if (ranked.includes(unit)) continue;
    if (!unit.includes(' ')) {
      const pair = pairs.find(([name, pairWeight]) => name.split(' ').includes(unit) && pairWeight >= weight / 2 && !ranked.includes(name));
      if (pair) ranked.push(pair[0]);
    }
    if (!ranked.includes(unit)) ranked.push(unit);
  }
  return ranked;
}

/** The title: the top terms, leaving out a word its pair already says (or the top tokens for a story of tokens only). */
function titleOf(line: Storyline, terms: readonly string[], tokens: readonly string[]): string {
  const title: string[] = [];
  for (const term of terms) {
    if (title.length === TITLE_UNITS) break;
    const words = term.split(' ');
    if (title.some((chosen) => chosen.split(' ').some((word) => words.includes(word)))) continue;
    title.push(term);
  }
  return title.length > 0 ? title.join(', ') : tokens.map((token) => `$${token}`).join(', ') || line.id;
}

function named(counts: Readonly<Record<string, number>>, posts: number, units: readonly string[], prefix: string): string[] {
  return Object.entries(counts)
    .filter(([name, count]) => count >= NAMED_SHARE * posts || units.includes(`${prefix}${name}`))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name]) => name);
}

export function statusOf(line: Storyline): StoryStatus {
  const detectedLast = line.scores.at(-1)?.[0] === line.detectedMs;
  if (!detectedLast) return 'fading';
  return line.scores.length === 1 || line.score > line.previousScore ? 'emerging' : 'peaking';
}

export function storyView(line: Storyline): StoryView {
  const terms = rankedTerms(line.weights);
  const posts = line.postIds.length;
  const tokens = named(line.tokens, posts, line.units, '$');
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    id: line.id,
    ...(line.parentId === undefined ? {} : { parentId: line.parentId }),
    title: titleOf(line, terms, tokens),
    terms: terms.slice(0, TERMS),
    tokens,
    contracts: named(line.contracts, posts, line.units, 'ca:'),
    posts,
    postIds: line.postIds,
    authors: line.authors.length,
    firstPoster: line.firstPoster,
    firstSeenAt: iso(line.firstSeenMs),
    peakAt: iso(line.peakMs),
    lastSeenAt: iso(line.lastSeenMs),
    status: statusOf(line),
    score: line.score,
    scoreChange: Math.round((line.score - line.previousScore) * 100) / 100,
    sentiment: posts === 0 ? 0 : Math.round((line.polaritySum / posts) * 1000) / 1000,
  };
}
