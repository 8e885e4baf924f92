/** The story engine's parameters, and why each has its default (docs/decisions.md, "Stories"). */
export interface StoryOptions {
  /** One interval of the baselines; the worker's is its refresh interval. Default 30 minutes. */
  intervalMs: number;
  /** Intervals a count spans (distinct authors in the last `spanIntervals` intervals). Default 2: an hour at 30 minutes. */
  spanIntervals: number;
  /** SigniTrend's α, the weight of one interval in the moving average. Default 1/96: a half-life of about a day at 30 minutes. */
  alpha: number;
  /** SigniTrend's β, the noise floor in distinct authors. Default 1. */
  beta: number;
  /** A unit bursts at this z-score or above... */
  zMin: number;
  /** ...and with at least this many distinct authors: one loud account never makes a story. Default 3. */
  minAuthors: number;
  /** An edge of the co-occurrence graph needs this many distinct authors writing both units. Default 2. */
  minPairAuthors: number;
  /** ...and that share of the rarer unit's authors. Default 0.3. */
  pairShare: number;
  /** A story continues a storyline sharing this share of the smaller one's units. Default 0.25. */
  linkOverlap: number;
  /** A storyline not detected for this long can no longer be continued. Default 6 hours. */
  linkGapMs: number;
  /** A storyline is kept this long after it was last detected. Default 24 hours. */
  windowMs: number;
  /**
   * Intervals replayed from the posts at hand when there is no state yet, or after a longer gap: the
   * cap on a first refresh's work. Default 60 (30 hours at 30 minutes: the 48 a new baseline learns,
   * then the 6 hours a storyline stays live); 144, the news window's 72 hours, took 15-30 s of CPU at 10,000 posts.
   */
  warmupIntervals: number;
  /** Buckets of the hashed baseline table (a power of two). Default 2^17. */
  buckets: number;
  /** Units a story keeps (its strongest). Default 12. */
  maxUnits: number;
}

export const DEFAULT_STORY_OPTIONS: Readonly<StoryOptions> = Object.freeze({
  intervalMs: 30 * 60_000,
  spanIntervals: 8,
  alpha: 1 / 96,
  beta: 0.5,
  zMin: 2.2,
  minAuthors: 3,
  minPairAuthors: 2,
  pairShare: 0.3,
  linkOverlap: 0.25,
  linkGapMs: 6 * 3_600_000,
  windowMs: 24 * 3_600_000,
  warmupIntervals: 60,
  buckets: 1 << 17,
  maxUnits: 12,
});
