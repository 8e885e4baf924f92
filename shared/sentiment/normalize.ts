/**
 * Rewrites a post so VADER's word-based rules can read crypto-market text: tickers removed,
 * idioms joined into single lexicon tokens, emoji turned into words. Pure string in, string out.
 */
import { CRYPTO_STANCE_WORDS } from './crypto-lexicon.js';
import { MARKET_PHRASES } from './market-phrases.js';

/**
 * Well-known tickers, removed when written in capitals. Tickers that are also English sentiment
 * words (WIN, SAFE, SUPER, ...) are left to the caller's `tickers`, since in general text their
 * capitals are emphasis.
 */
const DEFAULT_TICKERS = new Set(('BTC XBT ETH SOL XRP ADA DOGE SHIB AVAX DOT LINK MATIC POL UNI '
  + 'ATOM NEAR APT ARB OP SUI SEI TIA INJ PEPE BONK WIF FLOKI TRX LTC BCH XLM ALGO FIL ICP HBAR '
  + 'VET SAND MANA AXS GALA CRV AAVE MKR LDO RNDR RENDER JUP PYTH TON BNB USDT USDC DAI WLD FET '
  + 'STX KAS ORDI IMX GRT ENS LUNA LUNC FTT ETC XMR EOS QNT EGLD FTM RUNE GMX DYDX BLUR STRK '
  + 'ENA ONDO TAO JTO').split(' '));

/** Slang written in capitals by convention, so its capitals are not emphasis. */
const ACRONYMS = /\b(?:ATH|ATL|LFG|NGMI|WAGMI|GMI|FUD|HODL|FOMO|BTFD|GM|NFA|DYOR)\b/g;

const CASHTAG = /\$[A-Za-z][A-Za-z0-9]*\b/g;
const CAPITALISED_WORD = /\b[A-Z][A-Z0-9]{1,19}\b/g;

/**
 * Chains, protocols and venues named with general sentiment words ("gas on Optimism", "Safe
 * multisig"): capitalised only, since lower case is usually the word itself.
 */
const PROJECT_NAMES = /\b(?:Optimism|Harmony|Immutable(?: X| zkEVM)?|(?:Trust|Safe|Brave|Rainbow|Phantom|Coinbase|Exodus) Wallet|Magic Eden|Injective|Celestia|Merit Circle|Chainlink|Lido|Pendle|Ethena|Uniswap|Aave)\b/g;

/** "never been more bullish", "never looked better" are emphasis, not negation. */
const NEVER_MORE = /\bnever (been|felt|looked|was|were) (?:(?:more|so|this)\b|(?=better\b))/gi;

/**
 * A question asking for a pick ("what's the best wallet?", "which L2 has the lowest fees?",
 * "looking for a good tax tool, recommendations?") judges nothing: its evaluative words go.
 */
const QUESTION = /[^.!?\n]*\?/g;
const ASKING = /\b(?:what|what's|whats|which|where|anyone|any|is it|should i|should we|recommend\w*|suggestions?|looking for)\b/i;
/** A how-to question ("how do I bridge without paying crazy fees?") is informational as a whole. */
const HOW_TO = /^\s*how (?:do|does|can|should|would) (?:i|you|we|one|people|u)\b|^\s*how to\b/i;
const EVALUATIVE = /\b(?:best|better|good|great|top|cheapest|lowest|highest|safest|easiest|fastest|reliable|decent|solid|supports?|supported|favou?rites?|preferred|popular|recommended|trusted)\b/gi;

function dropEvaluativeWords(question: string): string {
  if (HOW_TO.test(question)) return ' ';
  const asking = ASKING.exec(question);
  if (asking === null) return question;
  return question.slice(0, asking.index) + question.slice(asking.index).replace(EVALUATIVE, '');
}

/**
 * Multi-word idioms -> one token of `crypto-lexicon.ts`. Applied in one pass (see `onePass`):
 * the leftmost match wins, and the earlier rule when two start at the same place. Patterns use
 * only non-capturing groups, since each rule's position in the pass is its capture group.
 * The market phrase tables run in a pass before these: they are the more specific readings
 * ("bull run is over" before "bull run", "open interest is building" before "open interest").
 */
const IDIOMS: ReadonlyArray<readonly [RegExp, string]> = [
  // Jargon whose words carry sentiment in general English: tokens absent from the lexicon.
  [/\bimpermanent loss(?:es)?\b/gi, 'impermanentloss'],
  [/\bopen interest\b/gi, 'openinterest'],
  [/\bstop[\s-]loss(?:es)?\b/gi, 'stoploss'],
  [/\b(?:take|takes|taking|took|taken) (?:some )?profits?\b|\btake[\s-]profits?\b/gi, 'takeprofit'],
  [/\bfear (?:and|&) greed(?: index)?\b/gi, 'feargreedindex'],
  [/\b(?:staking|block|mining|validator|liquidity|yield|farming|referral|lp) rewards?\b/gi, 'stakingreward'],
  [/\bhard[\s-]?forks?\b/gi, 'hardfork'],
  [/\b(?:mining )?difficulty adjustments?\b|\bmining difficulty\b/gi, 'difficultyadjustment'],
  [/\binterest rates?\b/gi, 'interestrate'],
  [/\bfully diluted\b/gi, 'fullydiluted'],
  [/\bnot financial advice\b/gi, 'nfa'],
  [/\bsupport(?:s|ed|ing)? (?:for )?(?:the )?(?:upcoming |new )?(?:\w+ )?(?:upgrade|hard ?fork|deposits?|withdrawals?|migration|airdrop|token swap|mainnet|rebrand)\b/gi, 'exchangesupport'],
  [/\bsupport (?:levels?|zones?|lines?)\b/gi, 'supportlevel'],
  [/\bno clear (?:direction|trend|bias|move)\b/gi, 'nodirection'],
  // Emphasis, not a negation of "funny": "we're so early it's not even funny".
  [/\bnot even funny\b/gi, 'noexaggeration'],
  [/\bfeedback (?:is )?welcome\b/gi, 'feedbackwanted'],
  // Governance and product facts: "92% in favor", "wallet supports 40 chains".
  [/\b(?:votes? |voted |\d+% )?in favou?r(?: of)?\b|\bvot(?:e|es|ed|ing) (?:for|against)\b/gi, 'voteresult'],
  [/\bsupports? (?:\w+ )?(?:chains?|networks?|tokens?|coins?|assets?|wallets?|l2s?|staking|bridging|swaps?|nfts?)\b/gi, 'productsupport'],
  // Phrases whose negation word is not a negation of what follows.
  [/\b(?:can't|cant|cannot|can not) believe\b|\b(?:never|didn't|didnt|did not) (?:thought|think|expected|expect|imagined|imagine)\b/gi, 'cantbelieve'],
  [/\bprobably nothing\b/gi, 'probablynothing'],
  [/\bnothing but\b/gi, 'only'],
  [/\bno (?:signs?|evidence|hint|risk|chance) of\b/gi, 'not'],
  // Stances that VADER reads from the wrong word or not at all.
  [/\b(?:not|never) (?:be )?selling\b|\b(?:never|won't|wont|don't|dont|do not|will not|not gonna|not going to|never gonna|never going to) sell\b/gi, 'notselling'],
  [/\b(?:sold|selling|sell|dumped) (?:everything|all|all my|my (?:whole |entire )?(?:\w+ )?(?:bags?|stack|coins|position))\b/gi, 'soldout'],
  [/\b(?:can't|cant|cannot) take (?:it|this|the \w+)(?: anymore)?\b/gi, 'fedup'],
  [/\b(?:no|zero) regrets?\b/gi, 'noregrets'],
  [/\b(?:cheapest|lowest)\b(?:\s+\S+){0,4}\s+(?:will|you'll|we'll|you will|we will) ever (?:see|be|get)\b/gi, 'lastchance'],
  [/\b(?:gonna|going to) make it\b/gi, 'gmi'],
  [/\blet (?:him|her|them|em|'em|us|me|the devs) cook\b|\b(?:devs?|team|builders?) (?:really |absolutely |actually |have |has )?cooked\b/gi, 'letthemcook'],
  [/\bexit liquidity\b/gi, 'exitliquidity'],
  [/\b(?:halt(?:s|ed|ing)?|paus(?:e|es|ed|ing)|freez(?:e|es|ing)|froze|frozen|suspend(?:s|ed|ing)?|disabl(?:e|es|ed|ing)) (?:all |user |customer |deposits and |deposits & )?withdrawals?\b|\bwithdrawals? (?:are |were |have been |got |remain |still )?(?:halted|paused|frozen|suspended|disabled|closed)\b|\bbank run\b/gi, 'withdrawalsfrozen'],
  [/\blost (?:the |its |their )?peg\b/gi, 'depeg'],
  [/\bheavy bags\b|\bbags are heavy\b/gi, 'heavybags'],
  [/\bsell(?:ing)? pressure\b/gi, 'sellpressure'],
  [/\bbuy(?:ing)? pressure\b/gi, 'buypressure'],
  [/\bsell the news\b/gi, 'sellthenews'],
  [/\bin profit\b/gi, 'inprofit'],
  [/\b(?:the )?bottom is in\b|\bbottomed(?: out)?\b/gi, 'bottomin'],
  [/\b(?:the )?top is in\b|\btopped out\b|\b(?:local|cycle|blow[\s-]?off) top\b/gi, 'topin'],
  [/\b(?:buyers|bulls|whales|dip buyers) (?:are |keep )?(?:stepping|stepped|step|coming|came) (?:back )?in\b/gi, 'buyersstepin'],
  [/\b(?:just|only|pure|mostly) fud\b/gi, 'ignorefud'],
  [/\b(?:about to|going to|gonna|will|could|might|set to|needs? to|has to|due to) correct\b/gi, 'correction'],
  [/\b(?:will|gonna|going to|about to|could|might|set to) tank\b/gi, 'tanking'],
  [/\b(?:we|it|price|prices|number|line|chart) (?:only |will |can only |gonna )?(?:go|goes|going) up\b/gi, 'pricehigher'],
  [/\b(?:go|goes|going|gone|went|headed|heading|move|moving|moves|trend|trending|push|pushing|grind|grinding|rip|rips|ripping|send|sends|sending|leg|way|much|lot|bounce|bouncing) higher\b/gi, 'pricehigher'],
  [/\bpump(?:s|ed|ing)?\s*(?:and|&|n|'n'|-n-|-and-)\s*dump(?:s|ed|ing)?\b/gi, 'pumpanddump'],
  [/\brug[\s-]?pull(?:s|ed|ing)?\b/gi, 'rugpull'],
  [/\b(?:to|2) the moon\b/gi, 'tothemoon'],
  [/\ball[\s-]time[\s-]highs?\b/gi, 'ath'],
  [/\ball[\s-]time[\s-]lows?\b/gi, 'atl'],
  [/\b(?:buy|buys|buying|bought) (?:more )?(?:on )?(?:the|this|every) dips?\b/gi, 'buythedip'],
  [/\b(?:bought|buying|buy|added|adding|add|loading|loaded|load|grabbed|grabbing|scooped|stacked|stacking) (?:some |a bit |a little )?more\b/gi, 'boughtmore'],
  [/\bsend it\b/gi, 'sendit'],
  [/\bap(?:e|es|ed|ing) in(?:to)?\b/gi, 'apedin'],
  [/\b(?:loading|loaded|load) up\b/gi, 'loadingup'],
  [/\bexplod(?:e|es|ing) (?:higher|up)\b/gi, 'explodehigher'],
  [/\bdiamond[\s-]hand(?:s|ed)?\b/gi, 'diamondhands'],
  [/\bpaper[\s-]hand(?:s|ed)?\b/gi, 'paperhands'],
  [/\bbull (?:run|market)s?\b/gi, 'bullrun'],
  [/\bbear markets?\b/gi, 'bearmarket'],
  [/\bbull ?traps?\b/gi, 'bulltrap'],
  [/\bcrypto winter\b/gi, 'cryptowinter'],
  [/\bexit scams?\b/gi, 'exitscam'],
  [/\bdead cat bounces?\b/gi, 'deadcatbounce'],
  [/\blongs (?:got |getting |get |being )?(?:liquidated|rekt|squeezed|wiped(?: out)?|wrecked|flushed)\b/gi, 'longsrekt'],
  [/\bshort squeezes?\b|\bshorts (?:got |getting |get |being )?(?:liquidated|rekt|squeezed|wiped out|wrecked)\b/gi, 'shortsqueeze'],
  [/\bignor(?:e|ing) (?:the |all the |this )?fud\b/gi, 'ignorefud'],
  [/\b(?:new|higher) highs?\b/gi, 'newhighs'],
  [/\bhigher lows?\b/gi, 'higherlows'],
  [/\b(?:lower (?:lows|highs)|new lows?)\b/gi, 'lowerlows'],
  [/\bup only\b/gi, 'uponly'],
  [/\b(?:going|go|goes|headed|heading) to (?:zero|0)\b/gi, 'tozero'],
  [/\bsell[\s-]?offs?\b/gi, 'selloff'],
  [/\bwiped out\b/gi, 'wipedout'],
  [/\bdown bad\b/gi, 'downbad'],
  [/\b(?:flip(?:s|ped|ping)?|turn(?:s|ed)?) resistance (?:in)?to support\b/gi, 'resistanceflipped'],
  [/\b(?:broke|breaks|breaking|broken) (?:through |above )?(?:the )?resistance\b/gi, 'resistanceflipped'],
  [/\b(?:lost|losing|lose|loses|broke|breaks|breaking|below|under|through) (?:the |every |all |key )?support(?: levels?)?\b|\bsupport (?:is )?(?:gone|lost|broken)\b/gi, 'lostsupport'],
  [/\b(?:held|holding|holds|hold|(?:bounced|bouncing|bounces)(?: \w+)? off) (?:the )?support\b/gi, 'supportheld'],
  [/\b(?:breaking|broke|breaks) out\b/gi, 'breakout'],
  [/\b(?:breaking|broke|breaks) down\b/gi, 'breakdown'],
  [/\bgreen (?:candles?|dildos?)\b|\b(?:everything|all|market|portfolio)(?: is| was| looks| turned)? green\b|\b(?:in the|sea of) green\b/gi, 'greencandle'],
  [/\bred (?:candles?|dildos?)\b|\b(?:everything|all|market|portfolio)(?: is| was| looks| turned)? red\b|\b(?:in the|sea of) red\b/gi, 'redcandle'],
  [/(?:\bup\s?|(?<![\w.])\+)\d+(?:\.\d+)?\s?(?:%|x\b)/gi, 'priceup'],
  [/(?:\bdown\s?|(?<![\w.])-)\d+(?:\.\d+)?\s?%/gi, 'pricedown'],
  [/\b\d+(?:\.\d+)?\s?% (?:up|higher|gains?|pump)\b/gi, 'priceup'],
  [/\b\d+(?:\.\d+)?\s?% (?:down|lower|drop|loss|dump)\b(?! to\b)/gi, 'pricedown'],
  [/\b\d+(?:\.\d+)?x\b/gi, 'xgain'],
];

type Rules = ReadonlyArray<readonly [RegExp, string]>;

/**
 * One left-to-right rewrite of `rules` into their tokens. Every rule starts at a word start (or
 * at the "+" / "-" of a percentage): checking that once, before trying each rule, halves the
 * pass. Two passes (market phrases, then idioms) rather than one: past about 150 alternatives
 * V8 compiles the combined pattern less well, and one big pass measured twice as slow.
 */
function onePass(rules: Rules): (text: string) => string {
  const pass = new RegExp(`(?<!\\w)(?=[\\w$+\\-])(?:${rules.map(([pattern]) => `(${pattern.source})`).join('|')})`, 'gi');
  // A capturing group inside a pattern would shift every later rule's group: fail at load.
  if (new RegExp(`${pass.source}|`).exec('')?.length !== rules.length + 1) {
    throw new Error('normalize: idiom patterns must use non-capturing groups only');
  }
  return (text) => text.replace(pass, (match: string, ...groups: unknown[]) => {
    const rule = rules.find((_, i) => groups[i] !== undefined);
    return rule === undefined ? match : keepCapitals(match, rule[1]);
  });
}

const marketPhrasePass = onePass(MARKET_PHRASES.map((phrase) => [phrase.pattern, phrase.token] as const));
const idiomPass = onePass(IDIOMS);

/**
 * "looks like a double top", "smells like a rug": a hedge before a market word is not VADER's
 * "like" (liking, 1.5), so it goes. Only before market words: in general English "looks like
 * you're happy" is read (and rated) as mildly warm.
 */
const LOOK_ALIKE = new RegExp(String.raw`\b(?:looks?|looking|seems?|feels?|smells?|sounds?|something|more|just) like (?=(?:a |an |the |another |we(?:'re| are)? |it(?:'s| is)? )?(?:${[...CRYPTO_STANCE_WORDS].join('|')})\b)`, 'gi');

/** Emoji -> word token of `crypto-lexicon.ts` (VADER drops one-character tokens such as ❤). */
const EMOJI_TOKENS: Readonly<Record<string, string>> = {
  '🚀': 'rocket', '🌙': 'moon', '🌕': 'moon', '📈': 'chartup', '📉': 'chartdown', '💎': 'gem',
  '🙌': 'raisedhands', '🔥': 'fire', '🐂': 'bull', '🐻': 'bear', '🟢': 'greencircle',
  '🔴': 'redcircle', '🤑': 'moneyface', '💰': 'moneybag', '💪': 'muscle', '🎉': 'party',
  '🥳': 'party', '👍': 'thumbsup', '👎': 'thumbsdown', '❤': 'heart', '💚': 'heart',
  '💙': 'heart', '💜': 'heart', '🧡': 'heart', '💔': 'brokenheart', '✅': 'check', '❌': 'cross',
  '⚠': 'warning', '🙏': 'pray', '💀': 'skull', '☠': 'skull', '🩸': 'blood', '🤡': 'clown',
  '😭': 'sob', '😢': 'cry', '😱': 'scream', '😬': 'grimace', '😠': 'angry', '😡': 'rage',
  '🤬': 'cursing', '😞': 'disappointed', '😔': 'pensive', '😍': 'hearteyes', '🥰': 'hearteyes',
  '😊': 'smile', '😃': 'smile', '😄': 'smile', '😀': 'grin', '😁': 'grin', '🙂': 'slightsmile',
  '😂': 'joy', '🤣': 'joy',
};
const EMOJI = new RegExp(Object.keys(EMOJI_TOKENS).join('|'), 'gu');
/** Variation selector, zero-width joiner and skin tones carry no sentiment of their own. */
const EMOJI_MODIFIERS = /[\uFE0F\u200D]|\u{1F3FB}|\u{1F3FC}|\u{1F3FD}|\u{1F3FE}|\u{1F3FF}/gu;

/** Capitals in the original stay capitals in the token, so VADER still reads the emphasis. */
function keepCapitals(match: string, token: string): string {
  return /[A-Z]/.test(match) && !/[a-z]/.test(match) ? token.toUpperCase() : token;
}

/**
 * `tickers`: extra symbols (upper case, without "$") to neutralise when written in capitals,
 * e.g. the tokens the index says a post mentions.
 */
export function normalizePost(text: string, tickers?: ReadonlySet<string>): string {
  const cleaned = text
    .replace(/[\u2018\u2019]/g, "'") // phone keyboards type "don’t"; VADER's negations use '
    .replace(EMOJI_MODIFIERS, '')
    .replace(EMOJI, (emoji) => ` emoji_${EMOJI_TOKENS[emoji] ?? ''} `)
    .replace(CASHTAG, '')
    .replace(CAPITALISED_WORD, (word) => (DEFAULT_TICKERS.has(word) || tickers?.has(word) ? '' : word))
    .replace(PROJECT_NAMES, 'projectname')
    .replace(/[ \t]{2,}/g, ' ') // a removed ticker must not break an idiom's single spaces
    .replace(ACRONYMS, (word) => word.toLowerCase())
    .replace(NEVER_MORE, '$1 extremely ')
    .replace(QUESTION, dropEvaluativeWords);
  return idiomPass(marketPhrasePass(cleaned)).replace(LOOK_ALIKE, '');
}
