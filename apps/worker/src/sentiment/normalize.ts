/**
 * Rewrites a post so VADER's word-based rules can read crypto-market text: tickers removed,
 * idioms joined into single lexicon tokens, emoji turned into words. Pure string in, string out.
 */
import { CRYPTO_STANCE_WORDS } from './tables/crypto-lexicon.js';
import { MARKET_PHRASES } from './tables/market-phrases.js';
import { EMOJI_TOKENS } from './tables/emoji.js';
import { IDIOMS } from './tables/idioms.js';
import { CAPITALISED_SLANG, DEFAULT_TICKERS, PROJECT_NAMES } from './tables/names.js';

const CASHTAG = /\$[A-Za-z][A-Za-z0-9]*\b/g;
const CAPITALISED_WORD = /\b[A-Z][A-Z0-9]{1,19}\b/g;

/** "never been more bullish", "never looked better" are emphasis, not negation. */
const NEVER_MORE =
  /\bnever (been|felt|looked|was|were) (?:(?:more|so|this)\b|(?=(?:better|stronger|healthier|bigger|greater|higher|clearer|brighter|cheaper)\b))/gi;

/**
 * A question asking for a pick ("what's the best wallet?", "which L2 has the lowest fees?",
 * "looking for a good tax tool, recommendations?") judges nothing: its evaluative words go.
 */
const QUESTION = /(?<=^|[.!?\n])[^.!?\n]*\?/g;
const ASKING =
  /\b(?:what|what's|whats|which|where|anyone|anybody|any|is it|is there|are there|do i|does anyone|can i|can someone|can anyone|should i|should we|would you|recommend\w*|suggestions?|looking for|curious|wondering)\b/i;
/** A how-to question ("how do I bridge without paying crazy fees?") is informational as a whole. */
const HOW_TO =
  /^\s*how (?:do|does|can|should|would|is|are)\b|^\s*how to\b|\bwhat(?:'s| is) the difference\b|\bthe same (?:thing )?as\b|\bwhat (?:does|do) \S+(?: \S+)? mean\b|\bdifferent (?:from|than|to)\b|\b(?:resources?|guides?|explainers?|tutorials?|docs?) (?:on|for|about) how\b/i;
const EVALUATIVE =
  /\b(?:best|better|good|great|top|cheapest|lowest|highest|safest|safe|safer|easiest|easy|fastest|reliable|decent|solid|supports?|supported|favou?rites?|preferred|popular|recommended|trusted|recommend|worth|fine|free|legit|ok|okay|cool|nice|straightforward|helpful|useful|curious|wondering)\b/gi;
/** "Curious what the community's top 3 are": a question without its question mark. */
const CURIOUS =
  /\b(?:curious|wondering) (?:what|which|how|if|whether|where|who)\b[^.!?\n]*|\blooking for (?:a |an |some |any )?(?:good |decent |reliable |solid |great )?\w+[^.!?\n]*/gi;

/** "Trying to understand the risks": learning, not judging. */
const LEARNING =
  /\btrying to (?:understand|learn|wrap my head around)\b[^.!?\n]*|\b(?:can|could) (?:someone|anyone|somebody) explain\b[^.!?\n]*/gi;

function dropEvaluativeWords(question: string): string {
  if (HOW_TO.test(question)) return ' ';
  const asking = ASKING.exec(question);
  if (asking === null) return question;
  return question.slice(0, asking.index) + question.slice(asking.index).replace(EVALUATIVE, '');
}

/** An explainer or guide defines terms; the sentiment words in a definition are not a stance. */
const EXPLAINER =
  /^\s*(?:quick |short |simple )?(?:explainer|eli5|primer|definition|tutorial|guide|til|mod note|moderator note|admin note|rules? update|rules reminder|poll)\b|^\s*(?:a )?(?:thread|\u{1F9F5})\s*(?:on|about|:)\s*(?:how|what|why)\b|^[^.!?]{0,80}\bexplained(?: simply| briefly)?\s*[:\u2014-]/iu;

/** In scare quotes (a halt "for maintenance") the notice is doubted, not routine. */
const SCARE_QUOTED = /["\u201C][^"\u201D]*maintenance[^"\u201D]*["\u201D]/i;
/**
 * "Deposits paused during the upgrade", "wallet maintenance ... withdrawals suspended for an
 * hour": a scheduled pause is a routine notice. Only in a post that says it is scheduled.
 */
const ROUTINE_NOTICE = /\bmaintenance\b|\btemporarily\b|\b(?:during|for) the (?:\w+ )?(?:upgrade|hard ?fork|migration)\b|\bscheduled\b/i;
const PAUSE_WORDS =
  /\b(?:suspend(?:ed|s|ing)?|paus(?:e|ed|es|ing)|halt(?:ed|s|ing)?|disabled?|offline|unavailable|interrupted|downtime)\b/gi;

/** "long $OP", "Short BTC here": a position on a ticker, read before tickers are removed. */
const POSITION_ON_TICKER = /\b(?:[Ll]ong|LONG|[Ss]hort|SHORT)(?:ing)? (?=\$[A-Za-z]|[A-Z]{2,10}\b)/g;

/**
 * "from 50k to 8k", "from $0.40 to $2": the direction of a move between two prices. Only when
 * a number is written as a price ($, k/m/b or decimals), so "from 8 to 10 hours" is left alone,
 * and not after a block reward or issuance ("reward drops from 6.25 to 3.125" is a schedule).
 */
const FROM_TO =
  /(?<!\b(?:rewards?|subsidy|issuance|emissions?)\b[^.]{0,20})\bfrom (\$)?(\d[\d,]*(?:\.\d+)?)(?:\s?([kKmMbB]))?\b to (\$)?(\d[\d,]*(?:\.\d+)?)(?:\s?([kKmMbB]))?\b/g;
const SUFFIX: Readonly<Record<string, number>> = { k: 1e3, m: 1e6, b: 1e9 };

function priceValue(digits: string, suffix: string | undefined): number {
  return Number(digits.replace(/,/g, '')) * (SUFFIX[suffix?.toLowerCase() ?? ''] ?? 1);
}

function moveBetween(match: string, ...parts: Array<string | undefined>): string {
  const [dollarA, a = '', suffixA, dollarB, b = '', suffixB] = parts;
  const price = [dollarA, dollarB, suffixA, suffixB].some((part) => part !== undefined) || /\./.test(a + b);
  if (!price) return match;
  const from = priceValue(a, suffixA ?? suffixB);
  const to = priceValue(b, suffixB);
  if (from === to) return match;
  return to > from ? 'priceup' : 'pricedown';
}

/** "more scared than excited": the feeling after "than" is the one the writer lacks. */
const MORE_THAN = /\bmore (\w+) than \w+\b/gi;

type Rules = ReadonlyArray<readonly [RegExp, string]>;

/** One alternation of `rules`, each a capture group, every one starting at a word start. */
function alternation(rules: Rules): RegExp {
  return new RegExp(`(?<!\\w)(?=[\\w$+\\-])(?:${rules.map(([rule]) => `(${rule.source})`).join('|')})`, 'gi');
}

/**
 * Rules per alternation. V8 runs one alternation of 130 phrases about five times slower than
 * three of 50 (measured: 1,003 vs 182 ms per 10,000 posts), so a table is split into chunks.
 */
const CHUNK_SIZE = 50;

/**
 * One left-to-right rewrite of `rules` into their tokens, as a single alternation of them all
 * would do it: the leftmost match wins, and the earlier rule when two start at the same place.
 * Each chunk keeps its next match; only a chunk whose match was overtaken searches again.
 */
function onePass(rules: Rules): (text: string) => string {
  const chunks: Array<{ pattern: RegExp; rules: Rules }> = [];
  for (let i = 0; i < rules.length; i += CHUNK_SIZE) {
    const slice = rules.slice(i, i + CHUNK_SIZE);
    chunks.push({ pattern: alternation(slice), rules: slice });
  }
  return (text) => {
    // Each chunk's next match at or after `position`; undefined until first searched.
    const next: Array<RegExpExecArray | null | undefined> = chunks.map(() => undefined);
    let rewritten = '';
    let position = 0;
    for (;;) {
      let best: { match: RegExpExecArray; rules: Rules } | undefined;
      chunks.forEach((chunk, c) => {
        let match = next[c];
        if (match === undefined || (match !== null && match.index < position)) {
          chunk.pattern.lastIndex = position;
          match = chunk.pattern.exec(text);
          next[c] = match;
        }
        if (match != null && (best === undefined || match.index < best.match.index)) best = { match, rules: chunk.rules };
      });
      if (best === undefined || best.match[0] === '') break;
      const { match, rules: chunkRules } = best;
      // A capturing group inside a rule would shift every later rule's group. Checked on a match, not
      // at load: matching the alternations against '' there compiled them (about a second per process).
      if (match.length !== chunkRules.length + 1) throw new Error('normalize: idiom patterns must use non-capturing groups only');
      const rule = chunkRules.find((_, i) => match[i + 1] !== undefined);
      rewritten += text.slice(position, match.index) + (rule === undefined ? match[0] : keepCapitals(match[0], rule[1]));
      position = match.index + match[0].length;
    }
    return rewritten + text.slice(position);
  };
}

const marketPhrasePass = onePass(MARKET_PHRASES.map((phrase) => [phrase.pattern, phrase.token] as const));
const idiomPass = onePass(IDIOMS);

/**
 * "feels like May 2022", "looks like a double top": after a verb of perception "like" compares;
 * it is not VADER's "like" (liking, 1.5). Measured on tweets-dev: r 0.8828 -> 0.8835, accuracy
 * 0.9124 -> 0.9110 (three tweets cross a class line); the crypto sets gain.
 */
const PERCEIVED_LIKE = /\b(looks?|looking|seems?|feels?|feeling|smells?|sounds?) like\b/gi;
/** "something like a rug", "just like a rug pull": the same hedge, only before market words. */
const LOOK_ALIKE = new RegExp(
  String.raw`\b(?:something|more|just) like (?=(?:a |an |the |another |we(?:'re| are)? |it(?:'s| is)? )?(?:${[...CRYPTO_STANCE_WORDS].join('|')})\b)`,
  'gi',
);

const EMOJI = new RegExp(Object.keys(EMOJI_TOKENS).join('|'), 'gu');
/** Variation selector, zero-width joiner and skin tones carry no sentiment of their own. */
const EMOJI_MODIFIERS = /[\uFE0F\u200D]|\u{1F3FB}|\u{1F3FC}|\u{1F3FD}|\u{1F3FE}|\u{1F3FF}/gu;

/** Capitals in the original stay capitals in the token, so VADER still reads the emphasis. */
function keepCapitals(match: string, token: string): string {
  return /[A-Z]/.test(match) && !/[a-z]/.test(match) ? token.toUpperCase() : token;
}

/**
 * How a post is read: `market` when it is about the market; `general` keeps VADER's reading of
 * everyday English that market talk reads otherwise ("looks like" is liking to VADER).
 */
export type TextReading = 'market' | 'general';

/**
 * `tickers`: extra symbols (upper case, without "$") to neutralise when written in capitals,
 * e.g. the tokens the index says a post mentions.
 */
export function normalizePost(text: string, tickers?: ReadonlySet<string>, reading: TextReading = 'market'): string {
  const general = joinIdioms(text, tickers);
  return reading === 'market' ? marketReading(general) : general;
}

/** Both readings of a post, normalized once. */
export function normalizeReadings(text: string, tickers?: ReadonlySet<string>): Record<TextReading, string> {
  const general = joinIdioms(text, tickers);
  return { market: marketReading(general), general };
}

const marketReading = (general: string) => general.replace(LOOK_ALIKE, '').replace(PERCEIVED_LIKE, '$1');

function joinIdioms(text: string, tickers: ReadonlySet<string> | undefined): string {
  if (EXPLAINER.test(text)) return '';
  const routine = ROUTINE_NOTICE.test(text) && !SCARE_QUOTED.test(text);
  const cleaned = text
    .replace(/[\u2018\u2019]/g, "'") // phone keyboards type "don’t"; VADER's negations use '
    .replace(POSITION_ON_TICKER, (word) => (/^l/i.test(word) ? 'golong ' : 'goshort '))
    .replace(FROM_TO, moveBetween)
    .replace(MORE_THAN, '$1')
    .replace(PAUSE_WORDS, (word) => (routine ? 'scheduledpause' : word))
    .replace(EMOJI_MODIFIERS, '')
    .replace(EMOJI, (emoji) => ` emoji_${EMOJI_TOKENS[emoji] ?? ''} `)
    .replace(CASHTAG, '')
    .replace(CAPITALISED_WORD, (word) => (DEFAULT_TICKERS.has(word) || tickers?.has(word) ? '' : word))
    .replace(PROJECT_NAMES, 'projectname')
    .replace(/[ \t]{2,}/g, ' ') // a removed ticker must not break an idiom's single spaces
    .replace(CAPITALISED_SLANG, (word) => word.toLowerCase())
    .replace(NEVER_MORE, '$1 extremely ')
    .replace(QUESTION, dropEvaluativeWords)
    .replace(CURIOUS, dropEvaluativeWords)
    .replace(LEARNING, ' ');
  return idiomPass(marketPhrasePass(cleaned));
}
