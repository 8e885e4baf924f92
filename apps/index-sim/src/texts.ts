// Post text templates in crypto-Twitter register. {A} is the main cashtag ($SOL), {N} the
// token's name and {P} a percentage. The mood of a template is unambiguous on purpose: the
// sentiment feature downstream must be able to tell bullish from bearish talk, including a few
// negations ("not selling my $X") that a naive keyword count gets wrong.

import { type Rng, intBetween, pick } from './random.js';
import type { TokenInfo } from './tokens.js';

export type Mood = 'bullish' | 'bearish' | 'neutral';

const BULLISH: readonly string[] = [
  '{A} is going to the moon, loading more on every dip',
  '{A} breakout confirmed on the daily. Send it 🚀',
  'Accumulating {A} quietly while everyone is scared. wagmi',
  '{A} new ATH incoming, this chart is beautiful',
  'Not selling my {A}. Conviction is the whole game',
  'Just aped into {A}, this pump is only getting started',
  '{A} looking extremely bullish here, higher lows all week',
  'Been saying it for months: {N} is the play. {A} to new highs',
  '{A} up {P}% this week and still early imo',
  'Smart money keeps bidding {A}. Following the whales on this one',
  'Not bearish on {A} at all, this dip is a gift',
  '{A} reclaiming the range high, bullish into the weekend',
  'Every red candle on {A} gets bought instantly. Strong hands only',
  'Added a big bag of {A} today. Long term conviction play 💎',
  '{A} is the strongest chart in the market right now, easy long',
  'gm to {A} holders only. We are so early',
  '{N} ecosystem is booming, {A} will send',
  '{A} golden cross on the 4h. Bulls in full control',
  'Fundamentals on {N} have never been better. Bullish {A}',
  '{A} flipping resistance into support, next leg up loading',
  'If you are not holding {A} you are ngmi. This is the one',
  'Massive inflows into {A}, breakout is imminent',
  '{A} bull flag on the weekly, measured move says much higher',
  'Never been more bullish on {A} than today',
  '{A} to {P}x this cycle, screenshot this',
  'Bought more {A}. Undervalued and nobody is paying attention yet',
  '{A} is printing money for holders, incredible strength',
  'Loving the price action on {A}, buyers stepping in everywhere',
  '{A} wagmi. Huge upside from here',
  'Devs shipping nonstop on {N}. Super bullish on {A}',
  '{A} pumping hard and volume is confirming it',
  "Can't stop won't stop buying {A}. Moon mission engaged",
  '{A} ATH soon, the setup is perfect',
  '{A} holders are winning big this month, congrats frens',
  'Not worried about {A} at all. Strong project, strong community',
  '{A} rally has legs, adding on pullbacks',
  'Long {A}. Best risk reward on my watchlist',
  '{A} just broke out of a six month base. Send it',
  '{A} is easily a top pick for this quarter, bullish af',
  'Whales accumulating {A} hard, on-chain data looks amazing',
  '{A} momentum is unreal, up only',
  'Happy to hold my {A} bags for years. Great team, great tech',
];

const BEARISH: readonly string[] = [
  '{A} is a rug waiting to happen. Get out while you can',
  'Got rekt on {A} again, this chart is brutal',
  '{A} dumping {P}% and nobody is bidding. Terrible',
  'Not bullish on {A} anymore. The team keeps selling',
  '{A} exploit rumors, funds reportedly drained. Stay away',
  'Bearish on {A}, lower highs everywhere on the daily',
  'Longs on {A} getting liquidated all morning. Ugly',
  '{A} bagholders coping hard in the replies today',
  'Never buying {A} again. Worst trade of my life',
  '{A} unlock dump incoming, insiders are selling to you',
  'Not touching {A} with a ten foot pole',
  '{A} broke support, looks like a lot more downside',
  'Sold all my {A}. Dead project, dead volume',
  '{A} is ngmi. Zero users, endless emissions',
  'Another day, another {A} dump. Painful to watch',
  '{N} team went silent again. Bearish {A}',
  '{A} looks like a slow rug to me, careful out there',
  'Shorting {A} here, the trend is clearly down',
  '{A} down {P}% since launch and still overvalued',
  'Got liquidated on my {A} long. Market makers hunting stops',
  '{A} death cross on the daily. Bears in control',
  'Whales dumping {A} on retail all week. Terrible look',
  'Stay away from {A}, the tokenomics are a disaster',
  '{A} is a bagholder factory. Avoid',
  '{N} got exploited and {A} is bleeding out',
  'Not selling {A}? You will be. This chart is broken',
  '{A} capitulation is not over yet, expect more pain',
  'Rekt again by {A}. I am done with this one',
  '{A} volume collapsing, nobody cares anymore',
  'Massive outflows from {A}. Something is very wrong',
  'The {A} airdrop farmers are dumping everything. Bearish',
  '{A} rejected hard at resistance. Going lower',
  'Lost half my stack on {A}. Worst call this year',
  '{A} is dead money, rotating out',
  'The {A} chart looks awful, panic selling everywhere',
  "Can't believe people still hold {A}. It keeps crashing",
  '{A} holders are getting wrecked, brutal week',
  '{A} support gone, next stop much lower. Bearish',
  'Insiders unloading {A} bags, this is a scam',
  '{A} drained from the bridge again? Unreal. Dumping',
  'Not buying this {A} bounce, dead cat for sure',
  '{A} bleeding for weeks. Weak hands and weak fundamentals',
];

const NEUTRAL: readonly string[] = [
  'Watching {A} at this level',
  '{A} unlock schedule thread below',
  "What's the volume on {A} today?",
  'Anyone have a good dashboard for {A} on-chain flows?',
  '{A} consolidating in the same range as last week',
  'Writing up some notes on {N} ({A}) tokenomics, will share later',
  'Where is {A} listed besides the usual exchanges?',
  '{A} funding rates flat today',
  'Quick poll: how many of you hold {A}?',
  'Podcast with the {N} team going live in an hour, {A} holders tune in',
  '{A} open interest roughly unchanged since yesterday',
  'Reading the {N} governance proposal now. {A} voters, thoughts?',
  '{A} moved {P}% today, curious what the catalyst was',
  'Does anyone know when the next {A} upgrade ships?',
  'Comparing {A} fees across chains for a thread',
  'Added {A} to the watchlist, no position yet',
  'New {N} docs are out, skimming them tonight {A}',
  '{A} chart update: sideways, waiting for direction',
  'How are people staking {A} these days?',
  'Noting the {A} levels for tomorrow, nothing to do yet',
  '{A} trading volume mostly on two exchanges, interesting',
  'Spaces on {N} later today, topic is the {A} roadmap',
  'Is the {A} migration finished or still ongoing?',
  'Tracking wallets that hold {A}, will post the data',
  '{A} range: no strong opinion either way right now',
  'Anyone going to the {N} community call? {A}',
  'Summarised the {A} treasury report, link in bio',
  'Neutral on {A} until we see the next weekly close',
  '{A} dominance chart for reference',
  'Just here to watch {A} price discovery',
  'Trying the {N} testnet this weekend, {A} fees look low',
  'Where do you check {A} holder distribution?',
];

// Extra cashtags are appended in the same mood, so every token in a post shares its sentiment.
const EXTRA: Readonly<Record<Mood, readonly string[]>> = {
  bullish: [' Also loading {B}.', ' {B} looking strong too.', ' Same setup on {B}, bullish.', ' Holding {B} as well 🚀'],
  bearish: [' {B} just as bad.', ' Dumping my {B} too.', ' {B} looks even weaker.', ' Same rug vibes on {B}.'],
  neutral: [' Also watching {B}.', ' {B} on the list too.', ' Same question for {B}.', ' Noting {B} as well.'],
};

const TEMPLATES: Readonly<Record<Mood, readonly string[]>> = { bullish: BULLISH, bearish: BEARISH, neutral: NEUTRAL };

type TextToken = Pick<TokenInfo, 'symbol' | 'name'>;

/** Renders one post: the main token in a template of the mood, extra tokens in suffixes. */
export function renderText(rng: Rng, mood: Mood, main: TextToken, extras: readonly TextToken[]): string {
  let text = pick(rng, TEMPLATES[mood])
    .replaceAll('{A}', `$${main.symbol}`)
    .replaceAll('{N}', main.name)
    .replaceAll('{P}', String(intBetween(rng, 3, 60)));
  // Close the sentence before a suffix so "...higher Also loading $LINK." can't happen.
  if (extras.length > 0 && /[\w$%]$/.test(text)) text += '.';
  for (const extra of extras) text += pick(rng, EXTRA[mood]).replaceAll('{B}', `$${extra.symbol}`);
  return text;
}
