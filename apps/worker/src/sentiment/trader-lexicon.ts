/**
 * The lean of a post by the crypto lexicon of Chen, Després, Guo and Renault (2019): words and word
 * pairs, each with how strongly it leaned bullish (+1) or bearish (-1) across 1.5 million crypto
 * StockTwits posts tagged by their authors (data/sentiment/README.md). It knows trader idiom from
 * years the tagged posts we train on never saw; the learned layer reads its lean as a feature.
 *
 * The lexicon was built from raw posts tokenized its own way, so a post is read here from its raw
 * text, not the normalized one: lower case, cashtags, links, mentions, dollar amounts and numbers
 * as `cashtag`, `linktag`, `usertag`, `moneytag`, `numbertag`, `!` and `?` and each emoji code
 * point as tokens, and the word after a negator marked `negtag_` (the negator itself dropped).
 */

/** n-gram (a word, or two separated by a space) -> its lean in [-1, 1]. */
export type TraderLexicon = ReadonlyMap<string, number>;

const TOKEN =
  /https?:\/\/\S+|www\.\S+|\$[a-z][a-z0-9_]*(?:\.[a-z]+)?|\$\d[\d,.]*[kmb]?|@\w+|[a-z0-9’]+|[!?]|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F/gu;
const NUMBER = /^\d[\d.,]*$/;
const NEGATORS: ReadonlySet<string> = new Set(['not', 'no', 'never', 'none', 'nobody', 'neither']);

/** A post's tokens as the lexicon's authors wrote them. */
export function lexiconTokens(text: string): string[] {
  const tokens: string[] = [];
  let negate = false;
  for (const raw of text.toLowerCase().replace(/'/g, '’').match(TOKEN) ?? []) {
    const token = tag(raw);
    if (NEGATORS.has(token)) {
      negate = true;
      continue;
    }
    tokens.push(negate ? `negtag_${token}` : token);
    negate = false;
  }
  return tokens;
}

function tag(token: string): string {
  if (token.startsWith('http') || token.startsWith('www.')) return 'linktag';
  if (token.startsWith('$')) return /^\$\d/.test(token) ? 'moneytag' : 'cashtag';
  if (token.startsWith('@')) return 'usertag';
  return NUMBER.test(token) ? 'numbertag' : token;
}

/** Mean lean of the lexicon's words and pairs found in the post; undefined when none is. */
export function lexiconLean(lexicon: TraderLexicon, text: string): number | undefined {
  const tokens = lexiconTokens(text);
  let sum = 0;
  let found = 0;
  tokens.forEach((token, i) => {
    const word = lexicon.get(token);
    if (word !== undefined) {
      sum += word;
      found++;
    }
    const next = tokens[i + 1];
    const pair = next === undefined ? undefined : lexicon.get(`${token} ${next}`);
    if (pair !== undefined) {
      sum += pair;
      found++;
    }
  });
  return found === 0 ? undefined : sum / found;
}
