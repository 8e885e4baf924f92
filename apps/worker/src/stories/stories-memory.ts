/** What a worker keeps of the story engine between its news refreshes (stories-refresh.ts). */
import type { StoryEngine } from './engine.js';

/** The engine this worker stored last, and the version of the stored state it stands for. */
export interface StoriesMemory {
  version?: string;
  engine?: StoryEngine;
}
