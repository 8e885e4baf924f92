/**
 * Replays an archive of posts through the story engine the worker runs (docs/decisions.md,
 * "Stories") and prints one JSON line per storyline.
 * Usage: npm run --silent stories -- --posts <file.tsv> [--interval 30m] [--window 24h]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ArchiveError, parseArchive, replay } from '../apps/worker/src/stories/replay.js';

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function duration(name: string, raw: string): number {
  const match = /^(\d+)([smhd])$/.exec(raw);
  const ms = match ? Number(match[1]) * (UNIT_MS[match[2] as string] as number) : 0;
  if (ms < 60_000) fail(`--${name} must be a duration of a minute or more, such as 30m, 2h or 1d`);
  return ms;
}

function fail(message: string): never {
  process.stderr.write(`stories: ${message}\n`);
  process.exit(1);
}

const { values } = parseArgs({
  options: { posts: { type: 'string' }, interval: { type: 'string', default: '30m' }, window: { type: 'string', default: '24h' } },
  strict: true,
});
if (!values.posts) fail('--posts <file.tsv> is required (a TSV with the header created_at<TAB>author<TAB>text)');
const options = { intervalMs: duration('interval', values.interval), windowMs: duration('window', values.window) };
let text: string;
try {
  text = readFileSync(values.posts, 'utf8');
} catch (error) {
  fail(`cannot read ${values.posts}: ${error instanceof Error ? error.message : String(error)}`);
}
try {
  const stories = replay(parseArchive(text), options);
  process.stdout.write(stories.map((story) => JSON.stringify(story)).join('\n') + (stories.length > 0 ? '\n' : ''));
} catch (error) {
  if (error instanceof ArchiveError) fail(error.message);
  throw error;
}
