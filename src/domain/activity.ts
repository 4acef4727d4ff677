// The activity trail (docs/api.md "Activity trail"): the entry as the API returns it, the realtime
// event that announces one, and the filter the Activity tab and the `activity` console command
// share (user, kind, since as a duration back from now).

import { parseDuration } from './duration.ts';

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
  /** A duration back from now: 30m, 12h, 7d, 2w. */
  since?: string;
}

export const SINCE_MESSAGE = 'Use a duration like 30m, 12h, 7d or 2w for since.';

/**
 * The list's query parameters for a filter; throws SINCE_MESSAGE on a duration that cannot be read
 * so that the form keeps what was typed and says why.
 */
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
  const since = filter.since?.trim();
  if (since) {
    let seconds: number | null;
    try {
      seconds = parseDuration(since);
    } catch {
      throw new Error(SINCE_MESSAGE);
    }
    if (seconds === null) throw new Error(SINCE_MESSAGE);
    out.since = String(Math.floor(nowMs / 1000) - seconds);
  }
  return out;
}

/** One line of text for an entry: who, what, on what, how it went. */
export function activityLine(e: ActivityEntry): string {
  const what = `${e.kind} ${e.action}`;
  const summary = e.summary ? ` (${e.summary})` : '';
  const outcome = e.outcome === 'ok' ? '' : ` [${e.outcome}]`;
  return `${e.usernameFull} ${what}${summary}${outcome}`;
}
