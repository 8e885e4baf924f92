/**
 * Words that never make a story unit on their own: English function words, the stream's filler
 * ("lol", "gonna") and the few words every crypto post carries. A common word still bursts only
 * against its own baseline, so this list is short: it keeps titles readable and pairs meaningful.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all almost also am an and any are aren't as at be because been before being
below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each
else even ever every few for from further get gets getting go goes going gonna got had hadn't has hasn't have
haven't having he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've if in
into is isn't it it's its itself just let let's like lol lmao me more most much must mustn't my myself no nor not
now of off on once one only or other ought our ours ourselves out over own really same shan't she she'd she'll
she's should shouldn't so some still such than that that's the their theirs them themselves then there there's
these they they'd they'll they're they've this those though through to too under until up upon us very via was
wasn't we we'd we'll we're we've were weren't what what's when when's where where's which while who who's whom
why why's will with won't would wouldn't yeah yes yet you you'd you'll you're you've your yours yourself
yourselves im dont cant wont thats youre ive its isnt doesnt didnt u ur ya na oh ok okay hey amp http https www com
rt via gt lt btc eth crypto bitcoin ethereum`.split(/\s+/),
);
