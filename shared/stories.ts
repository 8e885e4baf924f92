/**
 * Stories (docs/decisions.md#d23): what several tracked accounts suddenly write about together,
 * with the posts that say it. The worker computes them at each news refresh; the API serves them.
 */
import { z } from 'zod';
import { NewsItemSchema } from './market-types.js';

export const STORY_WINDOWS = ['1h', '24h', '7d'] as const;
export type StoryWindow = (typeof STORY_WINDOWS)[number];
export const STORY_WINDOW_MS: Readonly<Record<StoryWindow, number>> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };

const time = (description: string) => z.iso.datetime().meta({ description });

export const StorySchema = z
  .object({
    id: z.string().meta({ description: 'The storyline: the same id for as long as the story runs.' }),
    parentId: z.string().optional().meta({ description: 'The storyline this one split from, when it did.' }),
    title: z.string().meta({ description: 'Its top terms, joined (no generated prose).' }),
    terms: z.array(z.string()).meta({ description: 'Its terms (words and word pairs), strongest first.' }),
    tokens: z.array(z.string()).meta({ description: 'Tokens its posts name, most named first.' }),
    contracts: z.array(z.string()).meta({ description: 'Contract addresses its posts name.' }),
    posts: z.number().int().nonnegative().meta({ description: 'Its posts.' }),
    postIds: z.array(z.string()).meta({ description: 'The ids of its posts, in the order they joined it.' }),
    authors: z.number().int().nonnegative().meta({ description: 'Distinct tracked accounts among its posts.' }),
    smartAuthors: z
      .number()
      .int()
      .nonnegative()
      .meta({ description: 'Of those, the smart-money accounts (every tracked account is one).' }),
    firstPoster: z.string().meta({ description: 'The author of its earliest post.' }),
    firstSeenAt: time('Its earliest post.'),
    peakAt: time('The refresh at which its score was highest.'),
    lastSeenAt: time('Its latest post.'),
    status: z
      .enum(['emerging', 'peaking', 'fading'])
      .meta({ description: 'emerging: new or rising; peaking: bursting, not rising; fading: no longer bursting.' }),
    score: z.number().meta({
      description:
        'Distinct authors in the last span × log2(2 + the mean burst z of its three strongest units); halves each refresh it does not burst.',
    }),
    scoreChange: z.number().meta({ description: 'Score minus its score at the previous refresh.' }),
    sentiment: z.number().meta({ description: 'The mean polarity of its posts, from -1 to 1.' }),
  })
  .meta({
    id: 'Story',
    description: 'A story: terms several tracked accounts burst into together, with its posts (docs/decisions.md#d23).',
  });
export type Story = z.infer<typeof StorySchema>;

export const StoryScorePointSchema = z
  .object({ at: time('The refresh.'), score: z.number() })
  .meta({ id: 'StoryScorePoint', description: "A story's score at one refresh." });
export type StoryScorePoint = z.infer<typeof StoryScorePointSchema>;

/** The snapshot body: each window's stories ranked by score, and each story's score over time. */
export interface StoriesSnapshotData {
  windows: Record<StoryWindow, Story[]>;
  scores: Record<string, StoryScorePoint[]>;
}

const cachedAt = time('ISO timestamp of the news refresh the stories were computed at.');

export const StoryListSchema = z
  .object({ window: z.enum(STORY_WINDOWS), data: z.array(StorySchema), cachedAt })
  .meta({ id: 'StoryList', description: 'The stories of a window, ranked by score.' });

export const StoryDetailSchema = z
  .object({
    data: StorySchema.extend({ scores: z.array(StoryScorePointSchema).meta({ description: 'Its score at each refresh since it began.' }) }),
    posts: z.array(NewsItemSchema).meta({ description: 'Its posts still held (the last 72 hours of news), newest first.' }),
    cachedAt,
  })
  .meta({ id: 'StoryDetail', description: 'A story with its score over time and its posts.' });
