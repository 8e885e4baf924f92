/** A synthetic stream for the story engine's tests: days of chatter from many accounts, and events planted in it. */
import { mulberry32 as rng } from '../../../apps/index-sim/src/random.js';
import type { StoryInput } from '../../../apps/worker/src/stories/engine.js';

export const HOUR = 3_600_000;
export const START = Date.parse('2026-03-02T00:00:00Z');

/** Everyday words: chatter draws four of them at random, so no pair of them recurs more than chance. */
const WORDS = `market bounce support resistance candle volume dip breakout funding chart bags patience morning weekend profit
trend range wick bulls bears green red pump dump rally slow strong weak hold buying selling waiting watching entry exit
stop leverage spot futures whale retail macro halving miner staking yield wallet exchange fees gas layer chain node
validator airdrop launch roadmap update community`.split(/\s+/);

/** `hours` of chatter: about `perHour` posts an hour from 40 accounts, each post one of the chatter words with a number. */
export function chatter(hours: number, perHour = 12, seed = 7): StoryInput[] {
  const random = rng(seed);
  const posts: StoryInput[] = [];
  for (let i = 0; i < hours * perHour; i += 1) {
    const publishedMs = START + Math.floor(random() * hours * HOUR);
    const words = Array.from({ length: 4 }, () => WORDS[Math.floor(random() * WORDS.length)] as string);
    posts.push({
      id: `c${i}`,
      author: `acct${Math.floor(random() * 40)}`,
      text: `${words.join(' ')} ${Math.floor(random() * 90) + 10}`,
      publishedMs,
    });
  }
  return posts;
}

/** One event: each author writes one of `texts` (a different one each) within the hour after `atMs`. */
export function event(name: string, authors: readonly string[], texts: readonly string[], atMs: number): StoryInput[] {
  return authors.map((author, i) => ({
    id: `${name}${i}`,
    author,
    text: texts[i % texts.length] as string,
    publishedMs: atMs + Math.floor(((i + 0.5) / authors.length) * HOUR),
  }));
}

export const HACK_TEXTS = [
  'Bridge exploit: the Orbiter bridge was drained, 40M gone',
  'Orbiter bridge drained overnight, exploit confirmed by the team',
  'the orbiter bridge exploit looks bad, funds drained to tornado',
  'Orbiter bridge drained. Pause your deposits, exploit still live',
  'exploit on orbiter bridge: attacker drained the hot wallet',
  'huge exploit, orbiter bridge drained, stay safe',
  'orbiter bridge exploit: drained and the token dumps',
  'confirmed: orbiter bridge drained by an exploit',
];

export const LISTING_TEXTS = [
  '$ZETA listing on Kraken announced for Friday',
  'Kraken listing $ZETA, spot trading opens Friday',
  'big news: kraken listing for $ZETA confirmed',
  '$ZETA kraken listing, deposits open now',
  'kraken listing $ZETA this week, finally',
  '$ZETA gets a Kraken listing, volume incoming',
];

export const authors = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
