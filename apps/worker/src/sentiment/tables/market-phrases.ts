/**
 * How crypto traders write about the market, as phrases: chart language, flows, events and
 * slang whose words mean something else (or nothing) in general English ("demand is insane",
 * "looks heavy", "double top", "funding is negative"). Each phrase becomes one token, so VADER's
 * negation and booster rules still reach it ("not a double top", "absolutely heating up").
 *
 * Valences are on VADER's scale (its "good" is 1.9, "great" 3.1, "bad" -2.5): a chart pattern
 * or flow is a mild-to-clear signal (about 1.0 .. 2.0), a theft, insolvency or "it's over" is
 * strong (2.5 .. 3.0). Phrases were written from trading usage, group by group, not from
 * particular posts; the groups are what generalises.
 *
 * `normalize.ts` applies every pattern in one pass before its own idioms: the leftmost match
 * wins, and the earlier entry when two start at the same place, so a specific phrase is listed
 * before a general one that shares its first words ("bull run is over" before "bull run").
 * Patterns use non-capturing groups only.
 */

export interface MarketPhrase {
  /** Lexicon token that replaces the phrase (lower case, not a VADER word). */
  token: string;
  valence: number;
  pattern: RegExp;
}

type Row = readonly [token: string, valence: number, pattern: RegExp];

// Shared fragments, so the tables read as phrases.
/** A price level: "$3,800", "72k", "0.25"; bare whole numbers ("lost 10 lbs") are not prices. */
const LEVEL = String.raw`(?:\$\d[\d,.]*(?:\s?[kKmMbB])?\b|\d[\d,.]*\s?[kK]\b|\d*\.\d+)(?: (?:support|resistance|level|floor|zone|area|line|mark|handle))?`;
/** A moving average: "the 200W MA", "the 50-day EMA", "the moving average". */
const MOVING_AVERAGE = String.raw`(?:the )?(?:\d+\s?-?\s?(?:d|w|h|day|week|hour)?\s?)?(?:ma|ema|sma|moving average)s?\b`;
/** A move by a percentage; 0-1.99 % is a quiet day, not a stance ("BTC +0.8%, ETH -0.5%"). */
const BY_PERCENT = String.raw`(?:by |over |more than |nearly |almost |about |around |roughly |~|another |a further )*(?![01](?:\.\d+)?\s?%)\d+(?:\.\d+)?\s?%`;
/**
 * What a measure of use or demand does, after its subject ("demand isn't slowing", "volume
 * keeps climbing"): only the predicate becomes the token, so a negator between the two still
 * reads. The lookahead comes first so the costly lookbehind runs only where a predicate starts.
 */
function afterDemandSubject(predicates: string): RegExp {
  return new RegExp(
    String.raw`(?=(?:${predicates})\b)(?<=\b(?:demand|volumes?|inflows|adoption|activity|usage|users|tvl|active addresses|addresses|transactions|hashrate|revenue|ecosystem|retail interest|buying|bids?|liquidity) (?:[\w'-]+ ){0,2})(?:${predicates})\b`,
    'gi',
  );
}
/** Reaching a level reads as up ("BTC to 100k", "can't break 72k"), unless a fall leads to it. */
const TOWARD_UP = String.raw`(?:hit|hits|hitting|tag|tags|tagging|clear|clears|clearing|break|breaks|breaking|reclaim|reclaims|reclaiming|flip|flips|flipping|(?:back|closed?|closes|holding|holds|stays?) above|see|sees|seeing|(?<!\b(?:drop|drops|dropped|dropping|fell|fall|falls|falling|dump|dumps|dumped|dumping|down|crash|crashed|crashes|crashing|sank|sink|sinks|slid|slide|slides|slipped|back|tank|tanked|tanking|plunged|plunge|wick|wicked|retrace|retraced|correct|corrected|bleed|bleeding|bled|dip|dipped|dips|dipping|lose|lost|from|go|goes|way) )(?<!\d[kKmMbB%]? )(?:to|toward|towards))`;

/** Chart structure and price action: patterns, levels, trend, candles. */
const PRICE_ACTION: readonly Row[] = [
  // Endings of a move or a season: before the season phrases of `normalize.ts`.
  [
    'bullnotover',
    1.8,
    /\b(?:the )?(?:bull ?run|bull ?market|rally|uptrend|pump|party|alt ?season|cycle|run|szn|season) (?:is |'s )?(?:not|isn't|ain't|far from|nowhere near) (?:over|done|finished)\b/gi,
  ],
  [
    'moredownside',
    -1.5,
    /\b(?:the )?(?:bear ?market|bear|downtrend|crypto winter|winter|correction|pain|selling|dump|capitulation) (?:is |'s )?(?:not|isn't|ain't|far from|nowhere near) (?:over|done|finished)\b/gi,
  ],
  [
    'bullover',
    -2.2,
    /\b(?:the )?(?:bull ?run|bull ?market|rally|uptrend|pump|party|alt ?season|cycle|run) (?:is |'s |has |was )?(?:over|done|finished|dead|ended|cancell?ed|never coming|not coming|not happening|isn't coming|is not coming)\b/gi,
  ],
  [
    'bearover',
    2.0,
    /\b(?:the )?(?:bear ?market|bear|downtrend|crypto winter|winter|correction) (?:is |'s |has |was )?(?:over|done|finished|ended)\b/gi,
  ],
  // Classic reversal and continuation patterns.
  [
    'bullpattern',
    1.6,
    /\b(?:double|triple) bottoms?\b|\binverse (?:head (?:and|&) shoulders|h&s|hns)\b|\bcup (?:and|&) handle\b|\bbull(?:ish)? (?:flags?|pennants?)\b|\bascending triangles?\b|\bfalling wedges?\b|\bgolden cross(?:es)?\b|\bbullish (?:divergence|engulfing|retest|structure|market structure|setup|breakout)\b/gi,
  ],
  [
    'bearpattern',
    -1.6,
    /\b(?:double|triple) tops?\b|\bhead (?:and|&) shoulders\b|\bbear(?:ish)? (?:flags?|pennants?)\b|\bdescending triangles?\b|\brising wedges?\b|\bdeath cross(?:es)?\b|\bbearish (?:divergence|engulfing|retest|structure|market structure|setup|breakdown)\b/gi,
  ],
  ['bearpattern', -1.6, /\blower highs?\b/gi],
  // Indicator signals: "hash ribbons flashed a buy signal", "weekly MACD crossed up".
  [
    'buysignal',
    1.5,
    /\bbuy signals?\b|\b(?:macd|rsi|stoch\w*|indicators?) (?:\w+ )?(?:crossed|crosses|crossing|cross|turned|turning|curling|hooking) (?:up|bullish|higher)\b/gi,
  ],
  [
    'sellsignal',
    -1.5,
    /\bsell signals?\b|\b(?:macd|rsi|stoch\w*|indicators?) (?:\w+ )?(?:crossed|crosses|crossing|cross|turned|turning|curling|hooking) (?:down|bearish|lower)\b/gi,
  ],
  [
    'newhighs',
    1.8,
    /\bhighest (?:weekly |monthly |daily |yearly |quarterly )?(?:close|candle|level|price)s?\b|\b(?:pushing|heading|grinding|climbing|marching|moving) (?:\w+ )?(?:toward|towards|to|into) (?:new |yearly |fresh |the )?(?:highs|ath)\b/gi,
  ],
  // A move that failed is the other side's win: "short squeeze fizzled at 68k".
  [
    'fizzled',
    -1.5,
    /\b(?:short squeeze|squeeze|rally|pump|bounce|breakout|recovery|move up|rip) (?:\w+ )?(?:fizzled|fizzles|fizzling|failed|fails|died|dies|stalled|stalls)\b|\bfailed (?:breakout|bounce|rally|reclaim|retest)\b/gi,
  ],
  ['higherlows', 1.5, /\bhigher highs?\b/gi],
  // Out of a bad structure is good, out of a good one bad.
  [
    'breakout',
    1.8,
    /\b(?:broke|breaks|breaking|broken|bursting|burst|busted) (?:out )?(?:of|above|from|through) (?:the |a |this |its |that )?(?:[\w-]+ ){0,2}(?:downtrend|down trend|range|wedge|channel|resistance|consolidation|base|accumulation)\b/gi,
  ],
  [
    'breakdown',
    -2.0,
    /\b(?:broke|breaks|breaking|broken|fell|falls|falling|dropped|drops|slipped) (?:down )?(?:out of|below|from|under|through) (?:the |a |this |its |that )?(?:[\w-]+ ){0,2}(?:uptrend|up trend|range|channel|support|trendline|trend line|floor)\b/gi,
  ],
  ['fakeout', -1.2, /\bfake[\s-]?outs?\b|\bpump fakes?\b|\bfake pumps?\b|\bdeviation above\b/gi],
  [
    'gotrejected',
    -1.5,
    /\b(?:rejected|rejection|rejections|rejecting) (?:hard |again |once again )?(?:at|from|off|by)\b|\bgot (?:rejected|smacked|slapped)(?: down)?\b/gi,
  ],
  ['lostlevel', -1.5, new RegExp(String.raw`\b(?:can't|cannot|couldn't|can not|unable to) hold ${LEVEL}`, 'gi')],
  ['resistanceflipped', 1.8, /\b(?:close|closed|closes|closing|broke|breaks) above (?:the )?(?:\w+ )?resistance\b/gi],
  [
    'supportheld',
    1.5,
    new RegExp(String.raw`\b(?:held|holding|defended|defends) ${LEVEL}(?= (?:through|again|perfectly|nicely|firmly|all|as support))`, 'gi'),
  ],
  [
    'lostlevel',
    -1.5,
    new RegExp(
      String.raw`\b(?:level|support|floor|bid|line)(?: at ${LEVEL})? (?:got |was |just |has been )?(?:sliced|smashed|obliterated|taken out|cut through|gave way)\b`,
      'gi',
    ),
  ],
  [
    'lostlevel',
    -1.5,
    new RegExp(
      String.raw`\b(?:lost|loses|losing|lose|(?:back|closed|closes|closing|fell|falls|dropped|drops|slipped|trading|broke|sliding) below) (?:the )?${LEVEL}`,
      'gi',
    ),
  ],
  [
    'pricetarget',
    1.2,
    /\b(?:clos\w*|holding|holds|held|stays?|staying|back|trading|settled) (?:\w+ ){0,2}above \$?\d[\d,.]*(?:\s?[kK])?\b/gi,
  ],
  ['lostlevel', -1.5, /\b(?:clos\w*|stays?|staying|stuck|back|trading|settled) (?:\w+ ){0,2}below \$?\d[\d,.]*(?:\s?[kK])?\b/gi],
  [
    'pricedrop',
    -1.2,
    new RegExp(
      String.raw`\b(?:drop|drops|dropped|dropping|fell|falls|falling|dump|dumps|dumped|crash|crashed|crashes|slid|sank|plunged|tanked|wicked|down) to ${LEVEL}`,
      'gi',
    ),
  ],
  ['pricetarget', 1.2, new RegExp(String.raw`\b${TOWARD_UP} ${LEVEL}`, 'gi')],
  [
    'pricetarget',
    1.2,
    new RegExp(
      String.raw`\b(?:ripped|rips|ripping|blasted|blasts|blew|blows|sliced|pushed|pushes|pushing|surged|surges|topped|tops|crossed|crosses|crossing|passed|passes|surpassed|surpasses|exceeded|exceeds) (?:through |past |above |over )?${LEVEL}`,
      'gi',
    ),
  ],
  [
    'pricetarget',
    1.2,
    new RegExp(
      String.raw`\b(?:above|over|reclaim(?:s|ed|ing)?|held|holding|holds|bounced off|bouncing off|bounces off) ${MOVING_AVERAGE}`,
      'gi',
    ),
  ],
  ['lostlevel', -1.5, new RegExp(String.raw`\b(?:below|under|lost|lose|loses|losing|rejected (?:at|by|from)) ${MOVING_AVERAGE}`, 'gi')],
  // Fees falling is good news for users ("L2 fees drop over 90%"), so before the percentages.
  [
    'cheaperfees',
    1.2,
    /\b(?:gas |network |transaction |tx |l2 |trading )?fees (?:\w+ )?(?:drop|drops|dropped|dropping|fell|falls|falling|down|lower|cheaper|slashed|cut|plummet\w*|collapsed?)\b/gi,
  ],
  [
    'priceup',
    1.5,
    new RegExp(
      String.raw`\b(?:rose|rises|rising|gained|gains|jumped|jumps|surged|surges|climbed|climbs|rallied|rallies|pumped|pumps|soared|soars|spiked|spikes|grew|grows|up) ${BY_PERCENT}`,
      'gi',
    ),
  ],
  [
    'pricedown',
    -1.5,
    new RegExp(
      String.raw`\b(?:dropped|drops|fell|falls|declined|declines|lost|loses|shed|sheds|slid|slides|plunged|plunges|crashed|crashes|tanked|tanks|dumped|dumps|sank|sinks|down|off) ${BY_PERCENT}`,
      'gi',
    ),
  ],
  ['quietmove', 0, /(?<![\w.])[+-]?[01](?:\.\d+)?\s?%/g],
  ['offhighs', -1.0, /\b(?:from|off|below|under) (?:the |its |their )?(?:ath|all[\s-]time highs?|highs|peak)\b/gi],
  ['pricedown', -1.5, /\bdown again\b|\bstill (?:sliding|dropping|falling|bleeding|dumping)\b/gi],
  ['ranging', 0, new RegExp(String.raw`\brange (?:was |is |of |from )?${LEVEL} (?:to|and|-) ${LEVEL}`, 'gi')],
  [
    'ranging',
    0,
    /\b(?:stuck|trading|ranging|chopping|ranged) (?:\w+ )?between\b|\bsideways(?: chop)?\b|\bchop(?:py)?\b|\brange[\s-]?bound\b|\b(?:about |roughly )?(?:the )?same as last (?:week|month|year|cycle)\b/gi,
  ],
  [
    'breakout',
    1.8,
    /\b(?:broke|breaks|breaking|broken|cleared|clears|reclaimed|reclaims|flipped|flips) (?:out of |above |through )?(?:the |its |a |this |that )?(?:[\w-]+ ){0,2}(?:downtrend|down trend|descending)(?: line| resistance| trend ?line)?\b|\b(?:broke|breaks|breaking|broken|cleared|clears|reclaimed|reclaims|flipped|flips) (?:above )?(?:the )?range highs?\b/gi,
  ],
  [
    'supportheld',
    1.5,
    /\b(?:held|holding|holds|hold|defended|defending|defends) (?:the |this |that |key |the key )?(?:level|line|range lows?|lows)\b|\b(?:level|support|lows?) (?:held|holding|holds)\b/gi,
  ],
  [
    'bottomin',
    1.5,
    /\b(?:screams?|screaming) (?:a )?(?:bottom|buy)\b|\b(?:capitulation|the flush|the washout) (?:\w+ )?(?:already )?(?:happened|came and went|passed|printed|is done|is in)\b|\b(?:textbook|classic|full|final|peak) capitulation\b|\bbottoming(?: out)?\b|\b(?:was|is|marks?|marked|that's|thats|that was) (?:the|a) (?:local |cycle |generational )?bottom\b|\bbottom signals?\b|\bbottom (?:is )?(?:confirmed|forming|formed)\b/gi,
  ],
  [
    'bearover',
    2.0,
    /\b(?:capitulation|the worst|worst|pain|selling|sell-off|selloff|bear market|winter|correction) (?:is |are |has |was )?(?:behind us|in the rear ?view(?: mirror)?|over|done|finished)\b/gi,
  ],
  [
    'topin',
    -1.5,
    /\b(?:barber|uber driver|taxi driver|cab driver|shoeshine boy|hairdresser|dentist)(?: \w+){0,2} (?:is |was )?(?:giving|asking|talking|telling|shilling)\b|\beveryone(?:'s| is) a genius in a bull ?(?:market|run)\b|\b(?:looks?|looking|feels?|feeling|smells?|sounds?) (?:exactly |just |a lot |so much )?like (?:a|the) (?:local |cycle |market )?top\b|\b(?:signs?|signals?) of (?:a |the )?(?:local |cycle |market )?top\b|\bnear (?:the |a )?(?:local |cycle )?tops?\b|\btopping(?: out)?\b/gi,
  ],
  // Cycle years traders compare to: 2017 and 2021 ended in tops, 2018 and 2022 were bear markets.
  [
    'topin',
    -1.5,
    /\b(?:feels?|looks?|smells?|sounds?|just) (?:exactly |just |a lot |so much )?like (?:the |a )?(?:late |nov(?:ember)? |dec(?:ember)? )?'?(?:20)?(?:17|21)\b(?: top)?/gi,
  ],
  [
    'bearmarket',
    -2.2,
    /\b(?:feels?|looks?|smells?|sounds?|just) (?:exactly |just |a lot |so much )?like (?:the |a )?(?:may |june |late |early )?'?(?:20)?(?:18|22)\b/gi,
  ],
  [
    'moredownside',
    -1.5,
    /\bpricing (?:in )?(?:heavy |more |further |significant )?(?:downside|a crash|lower prices)\b|\b(?:further|more|lower|much lower|a lot further|way further|a long way|much further) to (?:fall|drop|go down|bleed|dump)\b|\bmore downside\b|\b(?:real )?(?:capitulation|the dump|the crash|the real pain|the bear market) (?:hasn't|has not|hasnt) (?:even )?(?:started|begun|happened)\b/gi,
  ],
  [
    'roomtorun',
    1.5,
    /\bretail (?:isn't|is not|hasn't|has not|ain't) (?:even )?(?:here|arrived|shown up|showed up|in|back)(?: yet)?\b|\bnot even (?:at|near|close to) (?:the |an? )?(?:ath|highs?|new highs?|top|peak)(?: yet)?\b|\b(?:still )?(?:has|have|got) (?:more |plenty of |lots of |so much )?room\b(?! (?:for error|to breathe|to (?:fall|drop|go down|bleed)))|\bnowhere near (?:the |a )?(?:top|peak|euphori[ac]\w*|overheated|cycle top|mania|froth\w*)\b|\b(?:plenty of|lots of|more|still (?:has|have) )room to (?:run|grow|go)\b|\bnot even close to (?:the |a )?(?:top|peak)\b/gi,
  ],
  [
    'dipsbought',
    1.5,
    /\b(?:absorb|absorbs|absorbing|absorbed|eating|ate|eats) (?:every |each |all (?:the )?|the )?(?:sell walls?|supply|selling|sells|asks|sell orders)\b|\b(?:buyers|bids?|demand) (?:are |is )?absorbing\b|\b(?:every |each |all |the )?dips? (?:\w+ ){0,5}(?:getting|gets|got|get|being|is|are) (?:bought|eaten|absorbed|scooped)(?: up)?\b/gi,
  ],
  [
    'bearsexhausted',
    1.5,
    /\b(?:bears|sellers|shorts|selling|sell-side) (?:are |is |look |looks |seem |seems )?(?:running out of (?:ammo|steam|gas)|exhausted|exhaustion|drying up|dried up|tired)\b|\bsell(?:er|ing) exhaustion\b/gi,
  ],
  ['uptrend', 1.5, /\btrend (?:is )?(?:still )?(?:up|intact|bullish)\b/gi],
  [
    'pricedown',
    -1.5,
    /\b(?:crush|crushes|crushing|kill|kills|killing|weigh on|weighs on|weighing on|hammer|hammers|hammering) (?:the )?price\b/gi,
  ],
  [
    'healthydip',
    1.2,
    /\bmid[\s-]cycle (?:reset|correction|pullback|dip|shakeout)\b|\bbefore (?:the )?(?:continuation|next leg(?: up)?|leg up)\b|\b(?:just|only|merely) (?:a |another )?(?:shakeout|shake ?out|dip|pullback|correction|retrace|retest|wick|flush)\b|\bhealthy (?:pullback|correction|retrace|dip|consolidation|reset|cooldown)\b/gi,
  ],
  [
    'rallycoming',
    1.8,
    /\b(?:rally|pump|bounce|leg up|breakout|run|send|reversal|recovery|fomo|catch[\s-]up (?:rally|move|trade)) (?:is )?(?:coming|incoming|loading|next|soon|imminent|brewing)\b/gi,
  ],
  [
    'dumpcoming',
    -1.8,
    /\b(?:dump|crash|correction|flush|leg down|rug|capitulation|selloff|sell-off) (?:is )?(?:coming|incoming|loading|next|soon|imminent|brewing)\b/gi,
  ],
  [
    'rallycoming',
    1.8,
    /\bsooner than (?:you|people|most) (?:think|expect)\b|\b(?:rate )?cuts (?:are )?(?:coming|incoming|on the way)\b|\b(?:set ?up|recipe|primed|ripe|ready|set) for (?:a |the |another )?(?:short squeeze|squeeze|breakout|rally|pump|leg up|send|move up)\b|\b(?:going to|gonna|about to|ready to|set to|primed to|poised to) (?:rip|explode|moon|go parabolic)\b|\bsends? us (?:through|higher|up|flying|parabolic)\b/gi,
  ],
  [
    'dumpcoming',
    -1.8,
    /\b(?:set ?up|recipe|primed|ripe|ready|set) for (?:a |the |another )?(?:flush|dump|crash|long squeeze|liquidation cascade|rug|selloff|sell-off|capitulation|leg down)\b/gi,
  ],
  ['nolegs', -1.5, /\b(?:has |have |had |with )?no legs\b/gi],
  [
    'gavebackgains',
    -1.8,
    /\b(?:gave|gives|giving|give) back (?:every bit of it|everything|it all|all of it)\b|\b(?:gave|gives|giving|give) back (?:all |most |half |every bit |everything |it all )?(?:of )?(?:its |the |their |my |his |her )?(?:gains?|pump|move|rally)\b|\bround[\s-]?trip(?:ped|ping|s)?\b|\bretrac(?:e|ed|es|ing) (?:the )?(?:entire|whole|full) (?:move|pump|rally)\b/gi,
  ],
  [
    'rallysold',
    -1.8,
    /\b(?:fad(?:e|ing|ed)|short(?:ing|ed)?) (?:every|each|any) (?:rally|bounce|pump|rip|green candle)\b|\b(?:sold|selling|sells|dumped|dumping) into (?:the )?(?:hype|euphoria|fomo|news|strength)\b|\b(?:every|each|any) (?:\w+ )?(?:rally|bounce|pump|push|rip|spike|green candle|move up) (?:\w+ )?(?:gets?|is|got|being|keeps getting) (?:sold|dumped|faded|rejected|smacked)(?: into)?\b|\b(?:sold|selling|sells|dumped|dumping) into (?:every |each |the |any )?(?:bounce|rally|strength|pump|green)\b/gi,
  ],
  // Bad news the market ignores: "Mt Gox coins distributed and the market barely flinched".
  [
    'resilient',
    1.5,
    /\b(?:fears?|fud|bad news|the unlock|the news) (?:was |were |is |are |already |all )*priced in\b|\bbarely (?:even )?(?:moved|dented|touched) (?:it|the price|price)\b|\b(?:barely|hardly|didn't even|did not even|didn't|did not|doesn't|never) (?:even )?(?:flinch|flinched|blink|blinked|budge|budged)\b|\bshrug(?:ged|s|ging)? (?:it |that |this |the \w+ )?off\b|\bsurvived (?:every|all|multiple|two|three|\d+) (?:\w+ ){0,2}(?:waves?|crashes|bear markets?|cycles|winters|delistings?|hacks|attacks)\b/gi,
  ],
  ['grindup', 1.5, /\bgrind(?:s|ing|ed)? (?:up|higher)\b|\bslow grind (?:up|higher)\b|\bstair[\s-]?step(?:s|ping)? (?:up|higher)\b/gi],
  [
    'grinddown',
    -1.5,
    /\bgrind(?:s|ing|ed)? (?:down|lower)\b|\bbleed(?:s|ing)? (?:out|lower)\b|\bslow bleed\b|\bmelt(?:s|ing|ed)? down\b/gi,
  ],
  // Charts "look" a way; "feeling tired" is about the writer, so only "feels heavy/toppy" count.
  [
    'looksheavy',
    -1.5,
    /\b(?:looks?|looking|chart is|chart looks) (?:\w+ )?(?:heavy|toppy|exhausted|tired|shaky|dumpy|weak|ugly|rough|bearish af|awful|terrible)\b|\bfeels? (?:\w+ )?(?:heavy|toppy|dumpy)\b/gi,
  ],
  [
    'lookstrong',
    1.5,
    /\b(?:risk[\s/-]?(?:to[\s-])?reward|r:r|upside|entry) (?:here |now )?(?:is |looks )?(?:insane|incredible|amazing|great|excellent|asymmetric|crazy|unreal)\b|\b(?:looks?|looking|chart is|chart looks) (?:\w+ )?(?:strong|insane|unreal|primed|screaming|ready to (?:run|rip|go|pop|send|move)|explosive|healthy|constructive|coiled|bullish af)\b/gi,
  ],
  [
    'heatingup',
    1.5,
    /\bheat(?:ing|s|ed)? up\b|\b(?:gaining|picking up|building) (?:momentum|steam|traction)\b|\b(?:volume|momentum|interest) (?:is |are )?(?:picking up|building|returning|coming back)\b|\bwaking up\b/gi,
  ],
  [
    'coolingoff',
    -1.0,
    /\bcool(?:ing|s|ed)? (?:off|down)\b|\b(?:losing|lost|loses|running out of|ran out of) (?:momentum|steam|gas)\b|\bmomentum (?:is )?(?:fading|dying|gone)\b|\bvolume (?:is )?(?:drying up|dried up|dead|fading)\b/gi,
  ],
  [
    'cleanchart',
    1.2,
    /\b(?:clean(?:est)?|beautiful|prettiest|perfect) (?:\w+ )?(?:chart|structure|breakout|retest)\b|\bchart (?:is |looks )?(?:so )?clean\b/gi,
  ],
  [
    'downonly',
    -1.8,
    /\bski slope\b|\b(?:only|just) (?:gone|went|goes|going|been going) down\b|\bdown only\b|\b(?:has|have) (?:been )?(?:gone|going) down (?:ever )?since\b/gi,
  ],
  ['bullscontrol', 1.5, /\b(?:bulls|buyers) (?:are )?(?:back )?in (?:full )?control\b/gi],
  ['bearscontrol', -1.5, /\b(?:bears|sellers) (?:are )?(?:back )?in (?:full )?control\b|\bshort covering\b/gi],
  [
    'godcandle',
    2.5,
    /\bgod candles?\b|\bface[\s-]?melt(?:er|ing)?\b|\bmelt[\s-]?up\b|\bprice discovery\b|\bblue sky(?: territory| mode)?\b/gi,
  ],
  [
    'fallingknife',
    -1.5,
    /\b(?:don't|do not|dont|never) (?:try to )?catch (?:it|this|that)\b|\b(?:not|never|won't|wont|don't|dont|stop) (?:be )?(?:trying to )?catch(?:ing)? (?:this|that|a|the|any) (?:falling )?knife\b|\bfalling knife\b|\bcatch(?:ing)? (?:a |the )?knife\b|\bno bottom in sight\b|\bno floor\b/gi,
  ],
  ['wickdown', -1.0, /\bwick(?:ed|s)? (?:down )?to\b|\bwicked down\b|\bflash crash(?:ed|es)?\b/gi],
  ['deadcatbounce', -2.0, /\bbart(?:ed| pattern| move| formation)\b/gi],
  [
    'markupphase',
    1.5,
    /\bmark[\s-]?up (?:phase|comes|next|incoming|begins|starting|time)\b|\b(?:end of|leaving|out of) (?:the )?accumulation\b/gi,
  ],
  [
    'distributiontop',
    -1.5,
    /\bdistribution (?:phase|top|pattern|zone|range|written|is happening|happening|going on)\b|\b(?:classic|textbook|looks like|smells like|signs of|clear|pure|heavy|obvious) distribution\b|\bbeing distributed\b/gi,
  ],
  // Whoever is trapped pays: shorts squeezed is bullish, longs squeezed bearish.
  [
    'shortsqueeze',
    2.0,
    /\bshort liquidations?\b|\bsqueeze (?:incoming|coming|loading|soon|time|is coming|is on)\b|\b(?:shorts|bears) (?:\w+ ){0,4}?(?:trapped|obliterated|destroyed|nuked|roasted|cooked|burned|burnt|in trouble|sweating|underwater|blown out|in pain|wrecked|rekt|liquidated|squeezed|wiped out|margin called)\b/gi,
  ],
  [
    'longsrekt',
    -2.0,
    /\blong liquidations?\b|\blong squeezes?\b|\b(?:longs|bulls) (?:\w+ ){0,4}?(?:trapped|obliterated|destroyed|nuked|roasted|cooked|burned|burnt|in trouble|sweating|underwater|blown out|in pain|wrecked|rekt|liquidated|squeezed|wiped out|margin called|flushed)\b/gi,
  ],
];

/** Money moving: exchanges, ETFs, whales, insiders, derivatives, token supply. */
const FLOWS_AND_SUPPLY: readonly Row[] = [
  // Coins leaving exchanges are held; coins sent to them are about to be sold.
  [
    'offexchange',
    1.5,
    /\b(?:exchange (?:balances?|reserves?|supply|holdings)|supply on exchanges|coins on exchanges) (?:[\w-]+ ){0,5}(?:lows?|dropping|falling|shrinking|declining|draining|depleting|down|lowest)\b|\bexchange outflows?\b|\boutflows? from exchanges\b|\b(?:withdrawn|moved|moving|pulled|leaving) (?:\w+ )?off (?:of )?exchanges?\b|\b(?:exchanges?|otc desks?) (?:are |is )?(?:running out of|running dry|drained of)\b|\bsupply (?:shock|squeeze|crunch)\b/gi,
  ],
  [
    'toexchange',
    -1.2,
    /\bexchange (?:inflows?|deposits?) (?:\w+ )?(?:spik\w+|ris\w+|up|jump\w+|surg\w+)\b|\b(?:inflows?|deposits?) (?:to|into|onto) exchanges?\b|\b(?:moved|moving|sent|sending|deposited|depositing) (?:\S+ ){0,3}(?:to|into|onto) (?:an |the |a )?(?:exchanges?|binance|coinbase|kraken|okx|bybit|market makers?)\b/gi,
  ],
  [
    'etfyes',
    2.0,
    /\betfs? (?:is |are |was |were |got |gets |finally )?(?:approved|approval|greenlit|green lit|launch(?:ed|es)?|live)\b|\b(?:approv\w+|greenlit) (?:the |a |an |spot |\w+ ){0,3}etfs?\b|\betf (?:inflows?|demand|buying|bid)\b/gi,
  ],
  [
    'etfno',
    -1.8,
    /\betfs? (?:is |are |was |were |got |gets )?(?:rejected|rejection|denied|delayed|postponed|outflows?)\b|\b(?:rejects?|rejected|denies|denied|delays?|delayed) (?:the |a |an |spot |\w+ ){0,3}etfs?\b/gi,
  ],
  [
    'whalesbuy',
    1.5,
    /\b(?:bid|buying|demand) never stops\b|\b(?:long[\s-]term )?holder supply (?:keeps |is )?(?:climbing|rising|growing|increasing|at (?:a )?(?:record|new high|ath))\b|\b(?:whales?|smart money|insiders?)(?: wallets?| addresses?)?(?: \S+)?(?: just| quietly)? (?:bought|scooped|accumulated|loaded up on)\b|\b(?:whales?|smart money|long[\s-]term holders|lths|hodlers|institutions?|funds?|insiders?|blackrock|saylor|microstrategy|strategy|treasur(?:y|ies)|companies|corporations?) (?:are |is |have been |has been |keep |keeps |just |quietly |still )?(?:buying|bought|buys|acquires|acquired|acquiring|purchases|purchased|purchasing|accumulating|accumulated|accumulate|scooping|scooped|loading|loaded|adding|added|adds|stacking|vacuuming|gobbling)\b|\bscoop(?:s|ing|ed)? up\b|\bspot (?:bid|buying|demand)\b|\bbid is back\b/gi,
  ],
  ['notselling', 1.5, /\b(?:stopped|stop|stops|quit|quits|done) (?:selling|dumping)\b|\binstead of selling\b/gi],
  [
    'concentrated',
    -1.5,
    /\b(?:insiders?|team|devs?|one wallet|a single wallet|insider wallets?|top \d+ wallets) (?:\w+ ){0,2}(?:holds?|holding|owns?|owning|controls?|controlling) \d+(?:\.\d+)?\s?%/gi,
  ],
  [
    'insidersell',
    -2.0,
    /\b(?:whales?|treasur(?:y|ies)|team|teams|insiders?|vcs?|foundation|devs?|founders?|miners?|early investors|unlockers|government|mt\.? ?gox)(?:'s)? (?:(?!(?:stopped|stop|stops|quit|quits|not|no|never|done)\b)\w+ ){0,2}(?:selling|sold|sells|dumping|dumped|dumps|unloading|unloaded|offloading|offloaded|cashing out|cashed out|distributing)\b|\bno bid\b|\bbids? (?:are |is )?(?:gone|thin|pulled|disappearing)\b/gi,
  ],
  // Crowded shorts pay funding and fuel squeezes; crowded longs are the fuel for a flush.
  [
    'fundingneg',
    1.0,
    /\b(?:wiped|flushed|washed|cleaned|cleared) out (?:the |all the |excess )?leverage\b|\bfunding (?:rates? )?(?:is |are |went |flipped |flips |turned |turns |stays? |remains? |still |now |goes )?(?:deeply |very |super |heavily |still |firmly )?(?:negative|red)\b|\bshorts (?:are )?(?:paying|paid)\b|\bfunding (?:has )?reset\b|\b(?:leverage|open interest|oi) (?:got |has been |was |is )?(?:flushed|washed out|wiped|reset|cleared|cleaned out)\b/gi,
  ],
  [
    'fundinghot',
    -1.2,
    /\b(?:everyone|everybody|all)(?:'s| is| are)? (?:\d+x |levered |leveraged |max |over-?levered |super |so )?long\b(?! (?:time|term|way|run|ago|story|day|days|week|while|weekend|night|hours?))|\bfunding (?:rates? )?(?:at|of|is|above|near) (?:0\.0[3-9]|0\.[1-9]|[1-9])\d*\s?%|\bfunding (?:rates? )?(?:is |are |went |flipped |turned |stays? |remains? |still |now )?(?:very |super |extremely |way |so |getting |insanely |crazy |absurdly |wildly |far |much )?(?:too )?(?:positive|high|elevated|hot|overheated|through the roof|spiking|extreme|crazy|insane|nuts)\b|\blongs (?:are )?paying\b|\b(?:leverage|open interest|oi) (?:\w+ ){0,4}(?:at|hit|hits|hitting) (?:a |an |new )?(?:record|all[\s-]time high|ath)s?\b|\b(?:leverage|perps?)[\s-](?:driven|fueled|fuelled)\b|\b(?:only|just) leverage\b|\b(?:leverage|open interest|oi) (?:is |keeps )?(?:building|stacking|piling|too high|overheated|through the roof|at (?:a )?record)\b/gi,
  ],
  // The crowd's euphoria is the contrarian's top signal.
  [
    'crowdeuphoria',
    -1.2,
    /\b(?:retail|everyone|everybody|the crowd|sentiment|the timeline|ct|twitter)(?: \w+){0,3}?(?:'s| is| are| feels| looks| seems)? (?:still |so |super |extremely |max |peak |fully )*(?:euphoric|in euphoria)\b|\b(?:peak|max|pure) euphoria\b|\beuphoria (?:is )?(?:everywhere|peaking|setting in)\b/gi,
  ],
  [
    'strongdemand',
    2.0,
    /\b(?:demand|volume|volumes|inflows|adoption|activity|usage|buying|bid|interest|revenue|fees|tvl|users|growth) (?:is |are |has been |have been |keeps |looks |just )?(?:absolutely |literally |still )?(?:insane|crazy|wild|nuts|bonkers|through the roof|exploding|off the charts|surging|booming|real|strong|huge|massive|unreal|parabolic|at (?:a |an )?(?:new )?(?:record|all[\s-]time high|ath))\b/gi,
  ],
  [
    'weakdemand',
    -1.5,
    /\bspot (?:never|didn't|did not|isn't|is not|wasn't) (?:follow|followed|following|buying|bidding)\b|\b(?:no|zero|too little|not enough|little|lack of|lacking|without) (?:real |actual |organic |spot |new |fresh )?(?:demand|buyers|volume|interest|liquidity|users|bid)\b|\b(?:isn't|is not|aren't|are not|not) enough (?:demand|buyers|liquidity|bids?|volume)\b|\b(?:demand|volume|liquidity|interest|users|activity|tvl|floors?|floor prices?) (?:is |are |has |have )?(?:dead|gone|drying up|dried up|collapsing|collapsed|evaporating|evaporated|weak|fading|tanking|thin|at (?:record|multi-year|yearly|all-time|\d+-year) lows)\b|\bwho(?:'s| is) left to buy\b|\b(?:no one|nobody) left to buy\b|\b(?:ran|running) out of buyers\b|\border ?books? (?:are |is )?(?:empty|thin)\b/gi,
  ],
  [
    'weakdemand',
    -1.5,
    afterDemandSubject(
      'cooling|slowing|weakening|declining|falling|dropping|shrinking|dying|fading|drying up|dried up|collapsing|evaporating|tanking|thin|dead|gone|at record lows',
    ),
  ],
  [
    'strongdemand',
    2.0,
    afterDemandSubject('growing|climbing|rising|increasing|expanding|accelerating|picking up|booming|surging|exploding'),
  ],
  [
    'strongdemand',
    2.0,
    /\b(?:biggest|largest|record|strongest|highest) (?:\S+ ){0,2}(?:inflows?|buying|demand|accumulation|purchases?)\b/gi,
  ],
  ['strongdemand', 2.0, /(?<!\bnext )\breal (?:demand|buyers|volume|adoption|bid|usage)\b/gi],
  [
    'sellingeased',
    1.5,
    /\b(?:outflows|selling|sell pressure|selling pressure|supply pressure|overhang|supply overhang) (?:\w+ ){0,2}(?:dried up|drying up|stopped|ended|slowed|slowing|easing|eased|lifting|lifted|fading|gone|done|over|exhausted)\b|\bminer (?:outflows|selling) (?:\w+ ){0,2}(?:dropped|fell|down|lows?|easing|eased|slowing|dried up)\b|\bdry powder\b|\bstablecoin (?:balances|reserves|supply) (?:\w+ ){0,3}(?:highs?|record|ath|all-time high)\b/gi,
  ],
  ['readytosell', -1.5, /\b(?:getting|gearing up|preparing|ready|about|looking) to (?:sell|dump|unload|offload)\b/gi],
  ['exitrush', -1.8, /\bhead(?:ing|ed|s)? for the (?:door|doors|exits?)\b|\brush(?:ing)? for the exits?\b|\bstampede\b/gi],
  ['multiplied', 1.5, /\b(?:doubled|tripled|quadrupled|\d+x'?d)\b/gi],
  [
    'capitalflight',
    -1.5,
    /\b(?:capital|money|liquidity|users|devs|developers|builders|investors|institutions|funds) (?:is |are |keeps? )?(?:leaving|fleeing|exiting|rotating out|pulling out|running away)\b|\bsmart money(?:'s| is| are)? (?:\w+ )?(?:exiting|leaving|selling|out|dumping|rotating out)\b/gi,
  ],
  [
    'capitalinflow',
    1.5,
    /\bretail (?:is |are )?(?:back|returning|coming back|flooding in|piling in)\b|\b(?:capital|money|liquidity|cash|funds) (?:is |are |keeps? |will |to |starting to |about to )?(?:flow(?:ing|s)?|pour(?:ing|s)?|rush(?:ing|es)?|com(?:e|ing|es)|flood(?:ing|s)?|rotat(?:e|ing|es)) (?:back )?in(?:to)?\b|\bliquidity incoming\b|\bliquidity (?:is )?(?:returning|coming back)\b|\brotat(?:ion|ing|es|e|ed) (?:back )?into\b(?! (?:stables|stablecoins|cash|fiat|usd|bonds|gold))|\brotation season\b/gi,
  ],
  // Macro: cheaper money is the market's tailwind.
  ['ratecut', 1.2, /\b(?:cutting|cuts?|lowering|lowers|lowered) (?:interest )?rates\b|\bdovish\b/gi],
  [
    'macrotailwind',
    1.2,
    /\b(?:cpi|inflation|ppi|pce)(?: print| data| number| report)?(?: came in| comes in| came| printed| prints| was| is)? (?:cool|cooler|soft|softer|lower than expected|below expectations|below forecast|cooling)\b|\b(?:cool|cooler|soft|softer) (?:cpi|inflation|ppi|pce)\b|\b(?:bond yields|treasury yields|yields|the dollar|dxy) (?:\w+ )?(?:falling|dropping|collapsing|tanking|sliding|down|lower|weakening|at (?:a )?(?:\d+[-\s](?:month|year|week) )?lows?)\b/gi,
  ],
  [
    'macroheadwind',
    -1.2,
    /\b(?:cpi|inflation|ppi|pce|jobs data|jobs report|nfp)(?: print| data| number| report)?(?: came in| comes in| came| printed| prints| was| is)? (?:hot|hotter|higher than expected|above expectations|above forecast)\b|\bhot (?:cpi|inflation|ppi|pce)\b|\b(?:bond yields|treasury yields|yields|the dollar|dxy) (?:\w+ )?(?:ripping|spiking|surging|soaring|rising|climbing|up|higher|at (?:a )?(?:\d+[-\s](?:month|year|week) )?highs?)\b/gi,
  ],
  ['ratehike', -1.2, /\b(?:hiking|hikes?|hiked|raising|raises|raised) (?:interest )?rates\b|\bhawkish\b/gi],
  [
    'supplyoverhang',
    -1.5,
    /\b(?:about to|set to|going to|gonna|will|could|might|to|start(?:s|ing)? to) (?:hit|flood|enter) the market\b|\b(?:hitting|flooding|entering) the market\b|\b(?:repayments?|distributions?|unlocks?) (?:\w+ )?(?:start|starting|begin|beginning|begins|incoming|next week|this week|tomorrow)\b/gi,
  ],
  ['tokenburn', 1.2, /\bburn (?:rate )?(?:is )?(?:up|rising|climbing|increasing|surging)\b/gi],
  [
    'newrecord',
    1.5,
    /\b(?:new |all[\s-]time |another )?record (?:high|highs|volume|inflows?|usage|revenue|tvl|users|activity|demand|fees|hashrate|week|month|day|quarter)\b|\b(?:hit|hits|set|sets|at|new|another) (?:an? )?(?:new )?records?\b/gi,
  ],
  // Supply: new tokens dilute holders, burns and buybacks concentrate them.
  [
    'tokendilution',
    -1.8,
    /\bmint(?:ed|s|ing)?(?: (?:another|an extra|a further|more|\d(?:[\d,.]*\d)?(?:\s?(?:[kmb]|million|billion)\b)?|(?:a |another |one )?(?:million|billion|trillion)))+(?: more)?(?: (?:tokens|coins|supply))?\b|\bprint(?:ed|s|ing)? (?:more )?(?:tokens|coins)\b|\b(?:big|huge|massive|giant|brutal|another) (?:token )?unlocks?\b|\b(?:\d[\d,.]*\s?[kmb]?|million|billion) tokens (?:hitting|hit|flooding|entering) the market\b/gi,
  ],
  [
    'tokendilution',
    -1.8,
    /\b(?:doubles?|doubling|triples?|tripling|inflat(?:es|ing|ed)|dilut(?:es|ing|ed)) (?:\w+ ){0,2}(?:circulating |token |total )?supply\b|(?<!\b(?:stablecoin|stable|usdt|usdc|dollar|money) )\bsupply (?:is |keeps )?(?:inflating|ballooning)(?: again)?\b/gi,
  ],
  [
    'supplycut',
    1.2,
    /\b(?:inflation|emissions?|issuance) (?:\w+ )?(?:cut|cuts|halved|reduced|slashed|lowered|reduction)\b|\bsupply (?:cut|cuts|shock)\b/gi,
  ],
  ['yieldcut', -1.2, /\b(?:staking |validator )?(?:rewards|yields?|apy|apr) (?:\w+ )?(?:cut|slashed|halved|reduced)\b/gi],
  [
    'tokenburn',
    1.2,
    /\b(?:removing|removes|removed|taking|takes) (?:more |\S+ )?supply\b|\bburn (?:exceeded|exceeds|outpaced|outpaces) issuance\b|\bultra ?sound money\b/gi,
  ],
  [
    'tokenburn',
    1.2,
    /\b(?:token |supply |fee )?burns?\b(?= (?:\d|of|more|another|tokens|supply|fees))|\bburn(?:ed|t|ing) (?:\S+ ){0,2}(?:tokens|supply|coins)\b|\b(?:buybacks?|buy-backs?|buy backs?)\b/gi,
  ],
];

/** Events: launches, listings, regulation, failures. */
const EVENTS: readonly Row[] = [
  [
    'shippedit',
    1.5,
    /\bmainnet (?:is |went |has )?(?:live|launch(?:ed|es)?|launching|shipped|out)\b|\b(?:launched|shipped|released) (?:the |its |their )?mainnet\b|\bupgrade (?:is |went |was |has )?(?:live|shipped|successful|went smoothly|completed|activated)\b|\b(?:keep|keeps|kept|been|are|is|they're|theyre|team|devs?) (?:\w+ )?shipping\b|\bshipping (?:nonstop|non-stop|fast|daily|weekly|every)\b|\bwithdrawals? (?:are |have )?(?:resumed|reopened|back)\b|\b(?:delivered|delivering) on (?:the |their |its )?roadmap\b/gi,
  ],
  [
    'gotdelayed',
    -1.5,
    /\b(?:mainnet|launch|upgrade|release|roadmap|migration|airdrop|unlock|listing|product|update|hard ?fork) (?:\w+ ){0,2}(?:delayed|postponed|pushed back|pushed|slipping|slipped|cancell?ed|scrapped)\b|\bdelayed again\b/gi,
  ],
  [
    'shippedit',
    1.5,
    /\b(?:is|are|went|now) live on mainnet\b|\b(?:builders|devs|developers) (?:are |keep |kept |just |still )?(?:building|buidling)\b|\bbuidl(?:ing)?\b/gi,
  ],
  [
    'bigstep',
    1.5,
    /\b(?:big|huge|major|massive|important|giant) (?:step|win|milestone|moment|news)\b|\bstep forward\b|\bmainstream (?:adoption|use)\b|\b(?:massive|huge|big) for\b/gi,
  ],
  [
    'outage',
    -2.0,
    /\b(?:network|chain|mainnet|sequencer|bridge|exchange|site|app|rpc) (?:is |was )?down for\b|\b(?:network|chain|mainnet|blockchain|exchange|site|app|website|api) (?:\w+ )?(?:went|goes|is|was|has been|keeps going) (?:down|offline|dark)\b|\b(?:chain|network|mainnet|blockchain|block production) (?:\w+ )?(?:halted|halts|stalled|stopped)\b|\boutages?\b|\b(?:without|no) (?:new )?blocks\b|\bstopped producing blocks\b/gi,
  ],
  [
    'withdrawalsfrozen',
    -2.5,
    /\b(?:can't|cannot|can not|unable to|couldn't) withdraw\b|\b(?:funds|assets|accounts|withdrawals) (?:\w+ )?frozen\b|\bchapter (?:11|7)\b/gi,
  ],
  [
    'proposalpassed',
    1.5,
    /\b(?:got|gets|finally) (?:\w+ ){0,3}passed\b|\bfee switch (?:\w+ )?(?:passed|approved|on|live|activated|turned on)\b|\breal yield\b|\bre-?rating\b/gi,
  ],
  ['redflag', -2.0, /\bred flags?\b|\b(?:no|without an?|zero) audits?\b|\bunaudited\b/gi],
  ['partnership', 1.2, /\bsign(?:s|ed|ing)? (?:\w+ ){0,2}(?:deals?|partnerships?)\b/gi],
  ['bigstep', 1.5, /\bthe (?:play|trade|pick|winner|coin) of (?:this|the) cycle\b/gi],
  [
    'confidencelost',
    -1.8,
    /\b(?:confidence|trust|faith|hype|optimism|conviction) (?:\w+ )?(?:is |are |has |have )?(?:fading|waning|gone|collapsing|collapsed|shaken|dying|evaporating|evaporated|cracking|broken|lost|eroding)\b|\b(?:lost|losing|lose) (?:all )?(?:confidence|trust|faith)\b|\bhard to (?:trust|believe in|take (?:this|it) seriously)\b|\bhow (?:is|are|can|could|would) (?:anyone|anybody|people|you|we|i) (?:\w+ ){0,3}(?:trust|believe in|take (?:this|it) seriously)\b/gi,
  ],
  [
    'regulatorhit',
    -2.0,
    /\b(?:sec|doj|cftc|regulators?|government|feds?|treasury department|ftc|finra|nydfs) (?:just |has |have |is |are |finally )?(?:sues?|sued|suing|charges?|charged|charging|going after|cracking down|cracked down|banning|bans|banned|subpoena\w*|investigating|raided|seized|freezes|froze)\b|\bwells notice\b|\benforcement action\b|\bcrack ?down on crypto\b/gi,
  ],
  [
    'regulatorwin',
    1.8,
    /\b(?:lawsuit|case|charges|investigation|appeal) (?:was |were |is |has been |got )?(?:dropped|dismissed|thrown out|closed|ended)\b|\b(?:won|wins|winning) (?:the |its |their |against )?(?:the )?(?:lawsuit|case|sec|appeal)\b|\bsettled with (?:the )?(?:sec|doj|cftc|regulators)\b|\bregulatory clarity\b/gi,
  ],
  [
    'devsgone',
    -2.2,
    /\b(?:devs?|team|founders?|project) (?:\w+ ){0,2}(?:went silent|gone silent|abandoned|disappeared|vanished|left|walked away|ghosted)\b|\b(?:dead|ghost|zombie) (?:chain|coin|project|token|discord|community)s?\b|\bdiscord is dead\b|\bghost ?town\b/gi,
  ],
  [
    'anotherhack',
    -2.2,
    /\b(?:another|third|second|latest|massive|major) (?:\w+ )?(?:hack|exploit|rug|drain)\b|\b(?:hackers?|exploiters?|attackers?) (?:stole|drained|took|got away with)\b/gi,
  ],
  ['depeg', -2.5, /\b(?:stable(?:coin)?s?|peg|pegged coin) (?:\w+ ){0,3}(?:at|to|below) \$?0?\.9\d*\b|\bbroke (?:the |its )?peg\b/gi],
];

/** Trader slang and sentiment idioms with no general-English sentiment word. */
const SLANG: readonly Row[] = [
  [
    'numbergoup',
    2.0,
    /\bnumber go(?:es)? up\b|\bngu\b|\bline go(?:es)? up\b|\bwe(?:'re| are)? so back\b|\bwe(?:'re| are) back\b|\bit(?:'s| is) (?:so )?(?:back|happening)\b/gi,
  ],
  ['itsover', -2.0, /\bit(?:'s| is) (?:so |all )?over\b|\bwe(?:'re| are) (?:so )?(?:cooked|done|finished)\b|\bgame over\b/gi],
  [
    'generational',
    2.5,
    /\bgenerational (?:buy|buying|bottom|entry|opportunity|wealth|low|chance)\b|\bonce in a (?:lifetime|generation|cycle) (?:buy|entry|opportunity|chance)\b|\bfew understand\b/gi,
  ],
  ['topsignal', -1.5, /\btop signals?\b|\bthat(?:'s| is) the top\b|\bsignals? the top\b|\bmarking the top\b/gi],
  [
    'boughttop',
    -1.8,
    /\b(?:bought|buying|longed|aped) (?:\w+ )?(?:the |at the )?(?:top|peak|local top)\b|\b(?:sold|selling|shorted) (?:\w+ )?(?:the |at the )?bottom\b/gi,
  ],
  [
    'boughtbottom',
    1.5,
    /\b(?:bought|buying|longed|aped) (?:\w+ )?(?:the |at the )?bottom\b|\b(?:sold|selling|shorted) (?:\w+ )?(?:the |at the )?top\b/gi,
  ],
  // Positions, not lengths: "opened a long", never "a long day".
  [
    'golong',
    1.5,
    /\b(?:opened|opening|went|entered|entering|flipped|added to|adding to|positioning|positioned) (?:a |my |the |some )?(?:\w+ )?long(?:s| position)?\b(?! (?:time|term|way|run|ago|story|day|days|week|while|weekend|night|hours?|drive|walk|list|line|haul|distance))|\blonged\b/gi,
  ],
  [
    'goshort',
    -1.5,
    /\b(?:opened|opening|went|entered|entering|flipped|added to|adding to) (?:a |my |the |some )?(?:\w+ )?short(?:s| position)?\b(?! (?:term|while|time|story|film|list|notice|walk|drive|trip|break))|\bshorting\b|\bshorted\b/gi,
  ],
  [
    'lastchance',
    1.5,
    /\bis a (?:gift|steal|bargain)\b|\b(?:accumulate|accumulating|buy|buying|stack|stacking|load|loading) (?:\w+ )?while (?:it's|its|it is|they're|everyone(?:'s| is)|nobody(?:'s| is)) (?:\w+ )?(?:boring|cheap|quiet|early|hated|ignored|scared|fearful|asleep|sleeping|unloved)\b|\bregret not (?:buying|holding|bidding|accumulating|getting in|aping)\b|\b(?:prices?|discount|sale|dip|these levels|this level|this price|cheap \w+) (?:\w+ ){0,2}(?:won't|wont|will not|isn't going to|aint gonna|ain't gonna) last\b|\b(?:still )?(?:early|cheap|a steal|on sale)\b(?= (?:here|at these|at this|right now|honestly|tbh))|\bdirt cheap\b/gi,
  ],
  ['wontlast', -1.2, /\bwhile (?:it|they) lasted\b|\b(?:won't|wont|will not|isn't going to|never gonna|never going to) last\b/gi],
  [
    'stillearly',
    1.5,
    /\bwe(?:'re| are) (?:so |still |very )?early\b|\bearly innings\b|\b(?:so|how|very|super|still|too|stupid|ridiculously|insanely) cheap\b|\bcheap (?:at|here|right now|for what)\b|\b(?:on sale|discount) (?:here|right now|at these)\b/gi,
  ],
  [
    'notselling',
    1.5,
    /\b(?:holding|hold|holds|hodling|riding) (?:\w+ )?(?:for|till|until) (?:way |much |a lot |even )?(?:more|higher|the moon|ath|new highs)\b|\bstill holding (?:the rest|strong|it all)\b|\b(?:not|never|won't|wont) (?:touching|touch) (?:it|them|my \w+|this|these|the \w+) (?:for|until|till|til|before)\b|\b(?:the )?rest (?:rides|ride|riding)\b|\blet(?:ting)? (?:the rest|it|them|runners?|my \w+) ride\b/gi,
  ],
  [
    'stayaway',
    -1.5,
    /\b(?:not|never|wouldn't|won't|wont|wouldnt) (?:touch|touching)\b|\bstay(?:ing)? away from\b|\bavoid(?:ing)? (?:this|it|\$?\w+) like the plague\b/gi,
  ],
  [
    'reasontosell',
    -1.8,
    /\bwhy would (?:anyone|you|i|people|anybody) (?:\w+ )?(?:hold|buy|own|touch)\b|\b(?:it's|it is|that's|that is) never (?:happening|gonna happen|going to happen)\b|\b(?:zero|no|not one|not a single) reasons? to (?:hold|buy|own|touch|be in|stay in|bother with)\b/gi,
  ],
  [
    'reasontohold',
    1.2,
    /\b(?:zero|no|not one|not a single) reasons? to (?:sell|panic|worry|fear|be scared|fud)\b|\bnothing to (?:worry|fear|panic) about\b/gi,
  ],
  ['gotnothing', -1.2, /\bgot (?:nothing|zero|peanuts|scraps|dust)\b/gi],
  [
    'isajoke',
    -2.0,
    /\b(?:is|was|are|were) (?:a |an |such a |total |a total |an absolute |a complete |complete |absolute )?(?:joke|clown show|circus|dumpster fire|trainwreck|shitshow|casino)\b|\bwhat a (?:joke|clown show|circus)\b/gi,
  ],
  ['margincalled', -2.0, /\bmargin[\s-]?call(?:ed|s)?\b/gi],
  [
    'givingup',
    -1.8,
    /\b(?:i'm|im|i am) (?:so )?done with (?:crypto|this|it|alts|memecoins|\w+)\b|\blost (?:my |our |his |her |their )?(?:entire |whole |all (?:of )?(?:my )?)?(?:stack|bags?|savings|portfolio|everything|life savings|account|net worth)\b|\b(?:don't|dont|do not) know what to do\b|\bnever again\b|\bi(?:'m| am|m) out\b(?! of)|\bi give up\b|\bgiving up on (?:this|crypto|\w+)\b|\bthrowing in the towel\b/gi,
  ],
  ['nevergiveup', 1.5, /\bnever (?:giving|give|gave|gonna give|going to give) up\b|\bstill holding strong\b/gi],
  [
    'diamondhands',
    2.0,
    /\b(?:held|holding|hodled|hodling|kept holding) (?:\S+ ){0,2}?(?:through|thru)(?= (?:the|every|all|that|this|it)\b)|\bheld (?:on )?anyway\b/gi,
  ],
  [
    'tozero',
    -2.5,
    /\b(?:farmed|bled|drained|dumped|crashed|rekt|nuked) (?:\w+ )?to (?:zero|0)\b|\b(?:held|holding|rode|ride|riding) (?:\S+ ){0,3}(?:to|down to) (?:zero|0)\b/gi,
  ],
  [
    'profitgreen',
    1.5,
    /\b(?:portfolio|bags?|account|pnl|p&l|stack|position|positions)(?: \w+){0,2} (?:is |are |finally |back |now )*(?:in the )?green\b/gi,
  ],
  [
    'profitred',
    -1.5,
    /\b(?:portfolio|bags?|account|pnl|p&l|stack|position|positions)(?: \w+){0,2} (?:is |are |still |now |deep )*(?:in the )?red\b|\bdown (?:bad|horrendous|astronomical)\b/gi,
  ],
  // A season is a topic ("alt season or meme season?"); its arrival is the stance.
  [
    'altseasonon',
    1.5,
    /\bdominance (?:is )?(?:topping(?: out)?|topped|rolling over|falling|dropping|breaking down|collapsing)\b|\b(?:cycle|alt ?season|bull ?run|season|szn|mania|the run|bull market)(?:'s| is) (?:on|back|here|live|underway)\b|\balt[\s-]?season (?:setup )?(?:is |has )?(?:here|forming|brewing|coming|incoming|starting|started|begun|confirmed|loading|begins)\b|\balts (?:are )?(?:waking up|pumping|ripping|running|sending)\b/gi,
  ],
  [
    'riskoff',
    -1.2,
    /\b(?:sitting|sit|staying|stay|parked|hiding) in (?:cash|stables|stablecoins|fiat|usdc|usdt)\b|\b(?:go|goes|going|went|gone|rotat(?:e|ed|ing)|parked|parking)(?: fully| all| 100%)? (?:to|into) (?:cash|stables|stablecoins|fiat|usdc|usdt)\b|\b(?:protect|preserve|save) (?:what's left|whats left|what is left|my capital|capital)\b|\brisk[\s-]off\b|\bmov(?:e|ed|ing) (?:\w+ )?(?:to|into) (?:stables|stablecoins|cash|fiat)\b|\bde-?risk(?:ing|ed)?\b/gi,
  ],
  ['riskon', 1.2, /\brisk[\s-]on\b/gi],
  ['allin', 1.5, /\b(?:going|went|is|are|am|i'm|im|we're|all|fully) all[\s-]in\b/gi],
  // "... and nobody's talking about it" is an undiscovered story; "nobody talks about X" a dead one.
  ['stillearly', 1.5, /\b(?:nobody|no one|noone)(?:'s| is) talking about (?:it|this)\b/gi],
  ['nobodycares', -1.5, /\b(?:nobody|no one|noone) (?:cares|is talking about|talks about|is buying|wants|uses)\b/gi],
  [
    'golong',
    1.5,
    /(?<!\b(?:a|so|too|how|very|the|this|that|as|for|all|not|way) )\blong (?:from here|from these levels|at these levels)\b|\b(?:i'm|im|i am|we're|we are|stay|staying|remain|remaining) long\b(?! (?:time|term|way|run|ago|story|day|days|week|while|weekend|night|hours?))/gi,
  ],
  [
    'exitchance',
    -1.5,
    /\bget (?:your|my|our) (?:coins|funds|money|crypto|assets|bags) out\b|\b(?:seen this (?:movie|film) before|this is how it starts)\b|\b(?:chance|opportunity|time|window) to (?:exit|sell|get out(?! of\b)|dump)\b|\b(?:getting|get|got) out (?:while\b|of (?:this|it|crypto|alts|anything|everything|all|my|\w+ (?:coins?|tokens?|bags?|positions?))\b)|\bwish (?:i'd|i had|id|i would(?:'ve| have)) (?:sold|exited|taken profits?|listened|gotten out)\b|\bshould(?:'ve| have) sold\b/gi,
  ],
  [
    'endsbadly',
    -1.8,
    /\bno way (?:\S+ ){0,2}(?:holds|hold|bounces|survives|recovers)\b|\bends? in (?:a )?(?:flush|tears|liquidations?|disaster|a bloodbath)\b|\b(?:zero|no|not a) chance (?:this|it|that|the) (?:price )?(?:holds|lasts|stays|sticks)\b|\b(?:won't|wont|will not|isn't going to|not gonna|never) end(?:s)? well\b|\bwill end (?:badly|in tears)\b|\bends? badly\b/gi,
  ],
  ['becareful', -1.0, /\b(?:be|stay) careful(?: out there)?\b|\bstay cautious\b|\bbrace (?:yourselves|yourself|for impact)\b/gi],
  ['getpaid', 1.5, /\b(?:about to |gonna |going to )?get(?:ting)? paid\b|\bpayday\b/gi],
  ['letsgo', 2.0, /\blet'?s go+\b(?! (?:over|through|back|to|with|and|for|of|in)\b)/gi],
  [
    'loadingup',
    1.5,
    /\bload(?:ing|ed)? (?:the |my |more |up (?:the |my )?)?bags\b|\b(?:more )?time to accumulate\b|\bkeep accumulating\b/gi,
  ],
  ['ignorefud', 1.5, /\bstop (?:the |spreading (?:the )?)?(?:fud|fudding)\b|\bfud (?:is )?(?:getting )?old\b/gi],
  ['stillwaiting', -0.8, /\b(?:still|been) waiting (?:for|on)\b/gi],
  [
    'dontwanttolook',
    -1.5,
    /\b(?:don't|dont|do not) (?:even )?want to (?:talk about|look at|think about|check)\b|\bcan't (?:even )?look at\b/gi,
  ],
  ['marketveteran', 0.5, /\b(?:been through|survived|seen|lived through) (?:\w+ )?(?:bear markets?|cycles|crashes|winters)\b/gi],
  // A stance someone held ("I was bearish at 40k", "I was wrong") is not the post's stance.
  [
    'paststance',
    0,
    /\bi was (?:so |very |super |too )?(?:bearish|bullish|wrong)\b|\bi (?:thought|believed|was sure|was convinced) (?:that )?(?:the )?(?:bottom|top) was in\b/gi,
  ],
  // Security advice is a routine notice, not a stance on anything.
  [
    'safetytip',
    0,
    /\b(?:never|don't|dont|do not) (?:ever )?(?:trust|click|share|send|sign|give|enter|connect|approve) (?:\w+ ){0,3}(?:links?|dms?|addresses|seed|private keys?|phrases?|transactions?|sites?|approvals?|anyone|strangers)\b/gi,
  ],
  [
    'safetytip',
    0,
    /\b(?:download|only use|use only|install) (?:\w+ ){0,3}(?:from |in )?(?:the )?official (?:site|website|app|links?|store|docs)\b|\bnobody legit will\b|\b(?:new |another |fake )?(?:wallet )?(?:drainers?|phishing (?:sites?|links?|scams?|campaigns?|emails?)|scam (?:sites?|links?)|fake (?:sites?|apps?|airdrops?|claim (?:pages?|sites?)))(?: \S+){0,6}? (?:is |are )?(?:going around|circulating|making the rounds|spreading)\b|\bimpersonat(?:ing|es|ed|ors?)\b|\bbeware of (?:fake|phishing|scam|drainer)\w*\b|\bdisguised as\b|\bfake (?:ones|sites|apps|versions|copies|links)(?: around| out there| circulating)?\b/gi,
  ],
  [
    'juststarted',
    1.5,
    /\b(?:strong hands|holders|hodlers|diamond hands|lths|crypto|bitcoin|this space|the space|the industry|this industry|this tech|the tech|blockchain|defi|ethereum) (?:isn't|is not|ain't|is never|aren't|are not) going anywhere\b|\bhere to stay\b|\b(?:just|only) (?:getting started|the beginning|the start|started)\b|\b(?:i'm|im|i am|we're|we are) not going anywhere\b/gi,
  ],
  ['goingnowhere', -1.5, /\b(?:going|goes|go|went) nowhere\b(?: but down)?/gi],
  [
    'goodluckholders',
    -1.5,
    /\bgood luck (?:holders|bagholders|longs|bulls|to (?:the |all )?(?:holders|bagholders|longs|anyone holding)|with that)\b/gi,
  ],
  [
    'bullsquiet',
    -1.5,
    /\b(?:bulls|buyers|moonboys|permabulls|maxis) (?:\w+ ){0,2}(?:quiet|silent|nowhere to be (?:found|seen))\b|\bdeleting (?:their |old )?tweets\b/gi,
  ],
  [
    'soldout',
    -1.2,
    /\b(?:reducing|reduced|reduce|cutting|trimming|trimmed|lowering|lowered) (?:my |our |some )?(?:exposure|allocation)\b|\b(?:exited|closed|sold|dumped) (?:\w+ ){0,2}(?:positions?|bags?|holdings|stack)(?: entirely| completely)?\b/gi,
  ],
  [
    'boughtmore',
    1.5,
    /\bscal(?:ing|ed|e) in(?:to)?\b|\b(?:increasing|increased|upping|upped|raising|raised) (?:my |our |some )?(?:exposure|allocation)\b|\b(?:not|never|aren't|isn't|are not|is not|nowhere near|far from) (?:done|finished) (?:buying|accumulating|adding)\b|\b(?:added|adding|add|adds) to (?:our|my|the|his|their|a) (?:\w+ )?(?:position|bag|stack|holdings)\b|\bcheapest (?:it's|it has|its|it) been\b/gi,
  ],
  ['goodsign', 1.2, /\b(?:good|great|healthy|bullish|positive|encouraging) signs?\b/gi],
  ['badsign', -1.2, /\b(?:bad|terrible|worrying|bearish|scary|ominous) signs?\b/gi],
  ['somuchfor', -1.2, /\bso much for\b/gi],
  ['dumponyou', -2.0, /\bdump(?:ing|ed|s)? on (?:you|us|retail|holders|buyers|everyone)\b|\b(?:easy|hard) pass\b/gi],
  [
    'imabuyer',
    1.5,
    /\b(?:i'm|im|i am|we're|we are) (?:buying|bidding|accumulating)(?: here| this| more| the dip)?\b|\bdca(?:'d|ed|ing)\b|\bdca into\b|\b(?:i'm|im|we're) (?:finally )?up (?:big|huge|nicely|massively|bigly)\b|\blife[\s-]changing (?:money|gains|wealth)\b|\bpaid off (?:my |the )?(?:student loans?|loans?|mortgage|debts?|house|car)\b|(?<=^|[.!?] )(?:adding|added|buying|bought|bidding|accumulating|longing|longed|positioned)(?: (?:here|more|some|again|today|now|a bit|a little|this dip))?(?=[.!]|$)|\b(?:i'm|im|i am|we're|we are) (?:a )?buyers?\b|\bbuyer all day\b|\bcheat code\b/gi,
  ],
  ['whostillfuds', 1.2, /\bwho(?:'s| is) still (?:fudding|bearish|selling|doubting|shorting)\b/gi],
  [
    'whostillfuds',
    1.2,
    /\bngmi if you(?:'re| are)? (?:still )?not (?:buying|stacking|holding|accumulating|in)\b|\b(?:and )?(?:you|y'all|people|they) (?:want to|wanna|are going to|still want to) (?:sell|short|dump)(?: \w+)?(?: here| now)?\?+(?: (?:ngmi|lol|lmao|cope)\b)?|\bif you(?:'re| are)? (?:still )?(?:not buying|not holding|selling|shorting|waiting for|bearish)\b[^.!?]{0,60}?\b(?:ngmi|(?:you'll|you will) (?:be )?(?:crying|cry|regret|seething|coping))\b|\bcope (?:all you want|harder|more),? (?:bears|shorts|haters|nocoiners|fudders|doomers)\b|\b(?:people|y'all|you|folks|anyone|some|they)(?: guys)? (?:are |is )?still (?:bearish|selling|fudding|doubting|shorting|scared)\b(?:\?+ (?:ngmi|lol|lmao|cope)\b)?/gi,
  ],
  // Mocking the doubters is the opposite stance: "everyone who said crypto was dead ...".
  [
    'doubterswrong',
    1.2,
    /\b(?:everyone|everybody|people|those|the people|the ones|whoever|anyone) (?:who |that )?(?:said|says|called|thought|claimed|was calling|were calling|kept saying)\b (?:\S+ ){0,5}?(?:was |is |were |are |would go |will go |going )?(?:dead|over|done|finished|a scam|to zero|dying|a ponzi)\b/gi,
  ],
  [
    'copes',
    -1.2,
    /\bcopium\b|\bhopium\b|\bcoping\b|\b(?:pure|just|total|massive|peak) cope\b|\b(?:is|was|that's|thats) cope\b|\bcope harder\b|\bkeep coping\b/gi,
  ],
];

/** The phrase tables in the order `normalize.ts` applies them. */
export const MARKET_PHRASES: readonly MarketPhrase[] = [...PRICE_ACTION, ...FLOWS_AND_SUPPLY, ...EVENTS, ...SLANG].map(
  ([token, valence, pattern]) => ({ token, valence, pattern }),
);

/** token -> valence; one token may stand for several phrasings. */
export const MARKET_PHRASE_VALENCE: ReadonlyMap<string, number> = new Map(MARKET_PHRASES.map((phrase) => [phrase.token, phrase.valence]));

// Two tables must not give one token two valences: the later would silently win.
for (const phrase of MARKET_PHRASES) {
  if (MARKET_PHRASE_VALENCE.get(phrase.token) !== phrase.valence) {
    throw new Error(`market-phrases: token ${phrase.token} has two valences`);
  }
}
