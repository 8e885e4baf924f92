/**
 * The callers' records as the worker appends them and the API reads them (docs/decisions.md#callers):
 * one line each, tab-separated, in per-day lists (shared/keyspace.ts, `callersKeys`).
 */
import { DAY_MS } from '../durations.js';

/** The longest window the reads answer. */
export const LONGEST_WINDOW_MS = 30 * DAY_MS;
/** How far back `?at=` reaches with every window whole (a 30d window 7 days back). */
export const AT_REACH_MS = 7 * DAY_MS;

/** How long a day's lists are kept after the day ends: the longest window, `?at=`'s reach and the horizon (its calls' breakouts). */
export function keptAfterDayMs(horizonMs: number): number {
  return LONGEST_WINDOW_MS + AT_REACH_MS + horizonMs;
}

export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/** What a call or breakout is about: a ticker (`token`) or a contract address (`ca`). */
export type Subject = 'token' | 'ca';

export interface CallRecord {
  /** The account, lower case. */
  account: string;
  /** The account as the post spells it. */
  username: string;
  /** The ticker (upper case) or the address (EVM lower case). */
  id: string;
  subject: Subject;
  /** The post's publishedAt (ms): the call's time. */
  callMs: number;
  /** The news refresh that recorded it (ms): from when the service knew of it. */
  seenMs: number;
  postId: string;
  followers: number;
  /** The post's text, at most POST_TEXT_CHARS characters. */
  text: string;
}

export interface BreakoutRecord {
  id: string;
  subject: Subject;
  /** The trending refresh that first listed it in the top (ms). */
  atMs: number;
  /** The chain of an address; empty for a ticker. */
  chain: string;
}

export const POST_TEXT_CHARS = 280;

const oneLine = (text: string) => text.replace(/[\t\r\n]+/g, ' ');
const SUBJECT_CODE: Readonly<Record<Subject, string>> = { token: 't', ca: 'c' };
const subjectOf = (code: string | undefined): Subject => (code === 'c' ? 'ca' : 'token');

export function encodeCall(call: CallRecord): string {
  return [
    call.username,
    call.id,
    SUBJECT_CODE[call.subject],
    call.callMs,
    call.seenMs,
    oneLine(call.postId),
    call.followers,
    oneLine(call.text).slice(0, POST_TEXT_CHARS),
  ].join('\t');
}

export function decodeCall(line: string): CallRecord | undefined {
  const [username, id, subject, callMs, seenMs, postId, followers, ...text] = line.split('\t');
  if (!username || !id || postId === undefined) return undefined;
  return {
    account: username.toLowerCase(),
    username,
    id,
    subject: subjectOf(subject),
    callMs: Number(callMs),
    seenMs: Number(seenMs),
    postId,
    followers: Number(followers) || 0,
    text: text.join(' '),
  };
}

export function encodeBreakout(breakout: BreakoutRecord): string {
  return [breakout.id, SUBJECT_CODE[breakout.subject], breakout.atMs, breakout.chain].join('\t');
}

export function decodeBreakout(line: string): BreakoutRecord | undefined {
  const [id, subject, atMs, chain] = line.split('\t');
  if (!id || atMs === undefined) return undefined;
  return { id, subject: subjectOf(subject), atMs: Number(atMs), chain: chain ?? '' };
}
