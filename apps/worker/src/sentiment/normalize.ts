/**
 * Rewrites a post so VADER's word-based rules can read crypto-market text: tickers removed,
 * idioms joined into single lexicon tokens, emoji turned into words. Pure string in, string out.
 */
import { CRYPTO_STANCE_WORDS } from './tables/crypto-lexicon.js';
import { MARKET_PHRASES } from './tables/market-phrases.js';

/**
 * Well-known tickers, removed when written in capitals. Tickers that are also English sentiment
 * words (WIN, SAFE, SUPER, ...) are left to the caller's `tickers`, since in general text their
 * capitals are emphasis.
 */
export const DEFAULT_TICKERS: ReadonlySet<string> = new Set(
  (
    'BTC XBT ETH SOL XRP ADA DOGE SHIB AVAX DOT LINK MATIC POL UNI ' +
    'ATOM NEAR APT ARB OP SUI SEI TIA INJ PEPE BONK WIF FLOKI TRX LTC BCH XLM ALGO FIL ICP HBAR ' +
    'VET SAND MANA AXS GALA CRV AAVE MKR LDO RNDR RENDER JUP PYTH TON BNB USDT USDC DAI WLD FET ' +
    'STX KAS ORDI IMX GRT ENS LUNA LUNC FTT ETC XMR EOS QNT EGLD FTM RUNE GMX DYDX BLUR STRK ' +
    'ENA ONDO TAO JTO'
  ).split(' '),
);

/** Slang written in capitals by convention, so its capitals are not emphasis. */
const ACRONYMS = /\b(?:ATH|ATL|LFG|NGMI|WAGMI|GMI|FUD|HODL|FOMO|BTFD|GM|NFA|DYOR)\b/g;

const CASHTAG = /\$[A-Za-z][A-Za-z0-9]*\b/g;
const CAPITALISED_WORD = /\b[A-Z][A-Z0-9]{1,19}\b/g;

/**
 * Chains, protocols and venues named with general sentiment words ("gas on Optimism", "Safe
 * multisig"): capitalised only, since lower case is usually the word itself.
 */
const PROJECT_NAMES =
  /\b(?:Optimism|(?:BNB )?Smart Chain|Safe multisig|Safe\{Wallet\}|Harmony|Immutable(?: X| zkEVM)?|(?:Trust|Safe|Brave|Rainbow|Phantom|Coinbase|Exodus) Wallet|Magic Eden|Injective|Celestia|Merit Circle|Chainlink|Lido|Discord|Pendle|Ethena|Uniswap|Aave)\b/g;

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
  [/\boptimistic rollups?\b|\boptimistic (?:and|or|vs\.?|versus) zk\b/gi, 'optimisticrollup'],
  [/\bfeel free\b/gi, 'feelfree'],
  [/\b(?:full|detailed|quick|complete) breakdown\b|\bbreakdown (?:of|on|here)\b/gi, 'itemization'],
  [/\bno bias\b|\b(?:key )?levels (?:i'm|im|i am|we're|to) watch(?:ing)?\b/gi, 'nobias'],
  [/\b(?:in |at )?extreme (?:fear|greed)\b/gi, 'sentimentreading'],
  [/\b(?:mining |network )?difficulty (?:is )?(?:rising|up|increasing|falling|down|at|hit|record)\b/gi, 'difficultyadjustment'],
  [/\bno action (?:is )?(?:required|needed)\b/gi, 'noaction'],
  [/\beffective (?:immediately|from|on|as of|today|tomorrow|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*)\b/gi, 'effectivedate'],
  [/\b(?:fraud|validity) proofs?\b/gi, 'rollupproof'],
  [/\bmax pain\b/gi, 'maxpain'],
  [/\bblock ?size wars?\b/gi, 'blocksizewars'],
  [/\bdigital assets?\b/gi, 'digitalasset'],
  [/\b(?:plan|manage|size) (?:your )?risk\b|\brisk management\b/gi, 'riskmanagement'],
  [/\bto save (?:its|their|his|her|my|your) life\b/gi, 'atall'],
  [/\bdon't let (?:\S+ ){1,3}fool you\b/gi, 'dontbefooled'],
  [
    /\b(?:everyone|everybody|people|ct|twitter)(?:'s| is| are)? (?:screaming|yelling|calling|crying|shouting) (?:capitulation|the top|top|crash|bottom)\b|\b(?:retail|weak hands|tourists|paper ?hands|everyone|everybody)(?:'s| is| are)? panic[\s-]?(?:sold|selling|sells)\b/gi,
    'crowdcall',
  ],
  [/\b(?:mining |network )?difficulty (?:adjusted|adjusts|retarget\w*)\b/gi, 'difficultyadjustment'],
  [/\b(?:odds|chances?|probability|pricing|priced)\b(?: \w+){0,3} rate (?:cut|hike)s?\b|\brate (?:cut|hike)s?\b/gi, 'ratedecision'],
  [/\bnext (?:stop|target)\b/gi, 'nexttarget'],
  [/\bstop asking\b/gi, 'stopasking'],
  [/\b(?:for what it's worth|fwiw)\b/gi, 'fwiw'],
  [/\bafter (?:\S+ ){0,3}(?:of )?(?:pain|suffering|bleeding|waiting)\b/gi, 'pastpain'],
  [/\bsorry for the (?:noob|dumb|stupid|basic) question\b|\bnoob question\b/gi, 'askingnote'],
  [
    /\b(?:please |pls )?(?:upgrade|update) (?:at your (?:earliest )?convenience|your (?:nodes?|clients?|wallets?|apps?)|to (?:v|version )?\d[\d.]*)\b|\bat your (?:earliest )?convenience\b|\bplease (?:upgrade|update|migrate)\b/gi,
    'upgradenotice',
  ],
  [/\bsmart money\b/gi, 'smartmoney'],
  [/\brisk[\s/-]?(?:to[\s-])?reward\b/gi, 'riskreward'],
  [/\btouch(?:ing)? grass\b/gi, 'touchgrass'],
  // Notes around an announcement, not a stance: "happy to answer questions", "for anyone who missed it".
  [
    /\b(?:happy|glad|feel free|here) to (?:answer|help|share|chat|explain)\b|\b(?:questions|dms) (?:are )?(?:welcome|open)\b|\bask (?:me )?(?:anything|away)\b|\bdrop (?:your |any )?questions\b/gi,
    'offerhelp',
  ],
  [
    /\b(?:for |in case )?(?:anyone|those|you|people|everyone) (?:who )?missed (?:it|them|this|the \w+)\b|\bin case you missed it\b|\bicymi\b/gi,
    'recapnotice',
  ],
  [/\b(?:will be|it'll be|should be|it's|it is|be) interesting to (?:see|watch)\b/gi, 'interestingtosee'],
  [/\bsince (?:the )?(?:\d{4} |last |covid |ftx )?(?:capitulation|crash|collapse|bottom|lows)\b/gi, 'timeanchor'],
  [/\btotal value locked\b/gi, 'tvl'],
  [/\bactive (?:addresses|wallets|users|accounts)\b/gi, 'activeaddresses'],
  [/\b(?:for|over|due to) the holidays?\b|\bholiday (?:hours|schedule|closure)\b/gi, 'holidaynotice'],
  [/\bmake sure\b/gi, 'makesure'],
  [/\bpay (?:rent|bills|the bills|taxes|my taxes)\b/gi, 'paybills'],
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
  [
    /\bsupport(?:s|ed|ing)? (?:for )?(?:the )?(?:upcoming |new )?(?:\w+ )?(?:upgrade|hard ?fork|deposits?|withdrawals?|migration|airdrop|token swap|mainnet|rebrand)\b/gi,
    'exchangesupport',
  ],
  [/\bsupport (?:levels?|zones?|lines?)\b/gi, 'supportlevel'],
  [/\bno clear (?:direction|trend|bias|move)\b/gi, 'nodirection'],
  // Emphasis, not a negation of "funny": "we're so early it's not even funny".
  [/\bnot even funny\b/gi, 'noexaggeration'],
  [/\bfeedback (?:is )?welcome\b/gi, 'feedbackwanted'],
  // Governance and product facts: "92% in favor", "wallet supports 40 chains".
  [/\b(?:votes? |voted |\d+% )?in favou?r(?: of)?\b|\bvot(?:e|es|ed|ing) (?:for|against)\b/gi, 'voteresult'],
  [
    /\b(?:adds?|added|adding) (?:\w+ )?support(?: for)?\b|\b(?:wallet|exchange|provider|app|client) supports\b|\b(?:adds? |added |adding )?support(?:s|ed)? (?:for )?(?:\w+ ){0,3}(?:chains?|networks?|tokens?|coins?|assets?|wallets?|l2s?|staking|bridging|swaps?|nfts?)\b/gi,
    'productsupport',
  ],
  // Phrases whose negation word is not a negation of what follows.
  [
    /\b(?:can't|cant|cannot|can not) believe\b|\b(?:never|didn't|didnt|did not) (?:thought|think|expected|expect|imagined|imagine)\b/gi,
    'cantbelieve',
  ],
  [/\bprobably nothing\b/gi, 'probablynothing'],
  [/\bnothing but\b/gi, 'only'],
  [/\bno (?:signs?|evidence|hint|risk|chance) of\b/gi, 'not'],
  // Stances that VADER reads from the wrong word or not at all.
  [
    /\b(?:not|never) (?:be )?selling\b|\b(?:never|won't|wont|don't|dont|do not|will not|not gonna|not going to|never gonna|never going to) sell\b/gi,
    'notselling',
  ],
  [/\b(?:sold|selling|sell|dumped) (?:everything|all|all my|my (?:whole |entire )?(?:\w+ )?(?:bags?|stack|coins|position))\b/gi, 'soldout'],
  [/\b(?:can't|cant|cannot) take (?:it|this|the \w+)(?: anymore)?\b/gi, 'fedup'],
  [/\b(?:no|zero) regrets?\b/gi, 'noregrets'],
  [/\b(?:cheapest|lowest)\b(?:\s+\S+){0,4}\s+(?:will|you'll|we'll|you will|we will) ever (?:see|be|get)\b/gi, 'lastchance'],
  [/\b(?:gonna|going to) make it\b/gi, 'gmi'],
  [
    /\blet (?:him|her|them|em|'em|us|me|the devs) cook\b|\b(?:devs?|team|builders?) (?:really |absolutely |actually |have |has )?cooked\b/gi,
    'letthemcook',
  ],
  [/\bexit liquidity\b/gi, 'exitliquidity'],
  [
    /\b(?:halt(?:s|ed|ing)?|paus(?:e|es|ed|ing)|freez(?:e|es|ing)|froze|frozen|suspend(?:s|ed|ing)?|disabl(?:e|es|ed|ing)) (?:all |user |customer |deposits and |deposits & )?withdrawals?\b|\bwithdrawals? (?:are |were |have been |got |remain |still )?(?:halted|paused|frozen|suspended|disabled|closed)\b|\bbank run\b/gi,
    'withdrawalsfrozen',
  ],
  [/\blost (?:the |its |their )?peg\b/gi, 'depeg'],
  [/\bheavy bags\b|\bbags are heavy\b/gi, 'heavybags'],
  [/\bsell(?:ing)? pressure\b/gi, 'sellpressure'],
  [/\bbuy(?:ing)? pressure\b/gi, 'buypressure'],
  [/\bsell the news\b/gi, 'sellthenews'],
  [/\bin profit\b/gi, 'inprofit'],
  [/\b(?:the )?bottom is in\b|\bbottomed(?: out)?\b/gi, 'bottomin'],
  [/\b(?:the )?top is in\b|\btopped out\b|\b(?:local|cycle|blow[\s-]?off) top\b/gi, 'topin'],
  // "This is not a top", "called the last top": the market's top, not the word "top" (+0.8).
  [
    /\b(?:a|the) (?:last |local |cycle |market )?top\b(?=\s*(?:[.,!?;:)]|$)|\s(?:in|is|was|here|now|signal|for|at|and|yet|call|already)\b)/gi,
    'topin',
  ],
  [/\b(?:buyers|bulls|whales|dip buyers) (?:are |keep )?(?:stepping|stepped|step|coming|came) (?:back )?in\b/gi, 'buyersstepin'],
  [/\b(?:just|only|pure|mostly) fud\b/gi, 'ignorefud'],
  [/\b(?:about to|going to|gonna|will|could|might|set to|needs? to|has to|due to) correct\b/gi, 'correction'],
  [/\b(?:will|gonna|going to|about to|could|might|set to) tank\b/gi, 'tanking'],
  [/\b(?:we|it|price|prices|number|line|chart) (?:only |will |can only |gonna )?(?:go|goes|going) up\b/gi, 'pricehigher'],
  [
    /\b(?:go|goes|going|gone|went|headed|heading|move|moving|moves|trend|trending|push|pushing|grind|grinding|rip|rips|ripping|send|sends|sending|leg|way|much|lot|bounce|bouncing) higher\b/gi,
    'pricehigher',
  ],
  [
    /\b(?:go|goes|going|gone|went|headed|heading|move|moving|moves|trend|trending|push|pushing|grind|grinding|leg|way|much|lot|dragged|drag|drags|sink|sinking|bleed|bleeding) lower\b|\b(?:dragged|drag|drags|dragging) down\b/gi,
    'pricelower',
  ],
  [/\bpump(?:s|ed|ing)?\s*(?:and|&|n|'n'|-n-|-and-)\s*dump(?:s|ed|ing)?\b/gi, 'pumpanddump'],
  [/\brug[\s-]?pull(?:s|ed|ing)?\b/gi, 'rugpull'],
  [/\b(?:to|2) the moon\b/gi, 'tothemoon'],
  [/\ball[\s-]time[\s-]highs?\b/gi, 'ath'],
  [/\ball[\s-]time[\s-]lows?\b/gi, 'atl'],
  [
    /\b(?:buy|buys|buying|bought|adding|add|added) (?:more )?(?:on )?(?:the|this|every|each|any) (?:dips?|red days?|red candles?)\b|\b(?:buy|buys|buying|bought) (?:the |this |every |any )?(?:fud|fear|panic|blood|capitulation)\b/gi,
    'buythedip',
  ],
  [
    /\b(?:bought|buying|buy|added|adding|add|loading|loaded|load|grabbed|grabbing|scooped|stacked|stacking) (?:some |a bit |a little )?more\b/gi,
    'boughtmore',
  ],
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
  [/\b(?:flip(?:s|ped|ping)?|turn(?:s|ed)?) (?:the )?(?:\S+ )?resistance (?:in)?to support\b/gi, 'resistanceflipped'],
  [/\b(?:broke|breaks|breaking|broken) (?:through |above )?(?:the )?resistance\b/gi, 'resistanceflipped'],
  [
    /\b(?:lost|losing|lose|loses|broke|breaks|breaking|below|under|through) (?:the |every |all |key )?support(?: levels?)?\b|\bsupport (?:is )?(?:gone|lost|broken)\b/gi,
    'lostsupport',
  ],
  [/\b(?:held|holding|holds|hold|(?:bounced|bouncing|bounces)(?: \w+)? off) (?:the )?support\b/gi, 'supportheld'],
  [/\b(?:breaking|broke|breaks) out\b/gi, 'breakout'],
  [/\b(?:breaking|broke|breaks) down\b/gi, 'breakdown'],
  [
    /\bgreen (?:candles?|dildos?)\b|\b(?:everything|all|market|portfolio)(?: is| was| looks| turned)? green\b|\b(?:in the|sea of) green\b/gi,
    'greencandle',
  ],
  [
    /\bred (?:candles?|dildos?)\b|\b(?:everything|all|market|portfolio)(?: is| was| looks| turned)? red\b|\b(?:in the|sea of) red\b/gi,
    'redcandle',
  ],
  [/(?:\bup\s?|(?<![\w.])\+)\d+(?:\.\d+)?\s?(?:%|x\b)/gi, 'priceup'],
  [/(?:\bdown\s?|(?<![\w.])-)\d+(?:\.\d+)?\s?%/gi, 'pricedown'],
  [/\b\d+(?:\.\d+)?\s?% (?:up|higher|gains?|pump)\b/gi, 'priceup'],
  [/\b\d+(?:\.\d+)?\s?% (?:down|lower|drop|loss|dump)\b(?! to\b)/gi, 'pricedown'],
  [/\b\d+(?:\.\d+)?x\b/gi, 'xgain'],
];

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

/** Emoji -> word token of `crypto-lexicon.ts` (VADER drops one-character tokens such as ❤). */
const EMOJI_TOKENS: Readonly<Record<string, string>> = {
  '🚀': 'rocket',
  '🌙': 'moon',
  '🌕': 'moon',
  '📈': 'chartup',
  '📉': 'chartdown',
  '💎': 'gem',
  '🙌': 'raisedhands',
  '🔥': 'fire',
  '🐂': 'bull',
  '🐻': 'bear',
  '🟢': 'greencircle',
  '🔴': 'redcircle',
  '🤑': 'moneyface',
  '💰': 'moneybag',
  '💪': 'muscle',
  '🎉': 'party',
  '🥳': 'party',
  '👍': 'thumbsup',
  '👎': 'thumbsdown',
  '❤': 'heart',
  '💚': 'heart',
  '💙': 'heart',
  '💜': 'heart',
  '🧡': 'heart',
  '💔': 'brokenheart',
  '✅': 'check',
  '❌': 'cross',
  '⚠': 'warning',
  '🙏': 'pray',
  '💀': 'skull',
  '☠': 'skull',
  '🩸': 'blood',
  '🤡': 'clown',
  '😭': 'sob',
  '😢': 'cry',
  '😱': 'scream',
  '😬': 'grimace',
  '😠': 'angry',
  '😡': 'rage',
  '🤬': 'cursing',
  '😞': 'disappointed',
  '😔': 'pensive',
  '😍': 'hearteyes',
  '🥰': 'hearteyes',
  '😊': 'smile',
  '😃': 'smile',
  '😄': 'smile',
  '😀': 'grin',
  '😁': 'grin',
  '🙂': 'slightsmile',
  '😂': 'joy',
  '🤣': 'joy',
  '😎': 'cool',
};
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
  return normalizeReadings(text, tickers)[reading];
}

/** Both readings of a post, normalized once. */
export function normalizeReadings(text: string, tickers?: ReadonlySet<string>): Record<TextReading, string> {
  const general = joinIdioms(text, tickers);
  return { market: general.replace(LOOK_ALIKE, '').replace(PERCEIVED_LIKE, '$1'), general };
}

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
    .replace(ACRONYMS, (word) => word.toLowerCase())
    .replace(NEVER_MORE, '$1 extremely ')
    .replace(QUESTION, dropEvaluativeWords)
    .replace(CURIOUS, dropEvaluativeWords)
    .replace(LEARNING, ' ');
  return idiomPass(marketPhrasePass(cleaned));
}
