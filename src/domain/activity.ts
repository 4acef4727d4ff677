// The activity trail (docs/api.md "Activity trail"): the entry as the API returns it, the realtime
// event that announces one, and the filter the Activity tab and the `activity` console command
// share (user, kind, since as a duration back from now).

import { parseDuration } from './duration.ts';
import { inWords } from './words.ts';

export interface ActivityEntry {
  activityId: string;
  /** Epoch seconds. */
  time: number;
  userId: string;
  username: string;
  usernameFull: string;
  method: string;
  route: string;
  /** The class path written (chat, gameCommands, serviceBans, groupUsers, services, …). */
  kind: string;
  /** create, update, replace, delete, run, send, or the route's own verb (accessKey, like, …). */
  action: string;
  target: string | null;
  /** The target's name (the player banned, the server changed), when it is one the trail knows. */
  targetName: string | null;
  summary: string;
  serviceIds: string[];
  groupIds: string[];
  /** 'ok', or the error code the write was refused with (forbidden, serviceNotConnected, …). */
  outcome: string;
}

/** Published on the channels of the entry's servers and groups, and the writer's own: `{activityId}`. */
export const ACTIVITY_EVENT = 'activityAdded';

export const ACTIVITY_PATH = '/sentinel/activity';

export interface ActivityFilter {
  /** Part of a username (`name` or `name#1a2b3c4d`). */
  user?: string;
  /** One kind, or several separated by commas. */
  kind?: string;
  /** How far back, in seconds; null or absent: the whole trail. */
  sinceSeconds?: number | null;
}

export const SINCE_MESSAGE = 'Use a duration like 30m, 12h, 7d or 2w, or leave it blank for the whole trail.';

/** A typed "since" (7d) in seconds, null when blank; throws SINCE_MESSAGE when it cannot be read. */
export function parseSince(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  try {
    const seconds = parseDuration(t);
    if (seconds !== null) return seconds;
  } catch {
    // The duration parser's message speaks of bans ("permanent"); this one of the trail.
  }
  throw new Error(SINCE_MESSAGE);
}

/** The list's query parameters for a filter. */
export function activityParams(filter: ActivityFilter, nowMs: number): Record<string, string> {
  const out: Record<string, string> = {};
  const user = filter.user?.trim();
  if (user) out.user = user;
  const kind = filter.kind
    ?.split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    .join(',');
  if (kind) out.kind = kind;
  if (filter.sinceSeconds) out.since = String(Math.max(0, Math.floor(nowMs / 1000) - filter.sinceSeconds));
  return out;
}

/** The cells of an entry as the console prints it and the CSV holds it, in ACTIVITY_HEADINGS order. */
export const ACTIVITY_HEADINGS = ['Time', 'User', 'Kind', 'Action', 'Target', 'Summary', 'Outcome'] as const;

export function activityCells(e: ActivityEntry): string[] {
  return [
    new Date(e.time * 1000).toISOString(),
    e.usernameFull,
    inWords(e.kind),
    inWords(e.action),
    e.targetName ?? e.target ?? '',
    e.summary,
    e.outcome,
  ];
}
