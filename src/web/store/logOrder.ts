// The log list's own order, time then messageId, and its exact cursors (docs/api.md "Log
// messages: exact cursors and live lines"): what every list of log lines (the log view, chat)
// needs to ask for the lines after the newest one it holds, with no gap and no duplicate.

import type { LogMessage } from '../../domain/api.ts';
import type { ListCursor } from './pagedList.ts';

export interface Cursor {
  time: number;
  id: string;
}

export const cursorOf = (m: LogMessage): Cursor => ({ time: m.time, id: m.messageId });

/** The list's own order: time, then messageId (uuid order is the order of its lower-case hex). */
export function compareCursor(a: Cursor, b: Cursor): number {
  return a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export const newestFirst = (a: LogMessage, b: LogMessage) => compareCursor(cursorOf(b), cursorOf(a));

/** The lines after `c` (all lines without one), oldest first: keyset paging from page 1. */
export const linesAfter = (c: Cursor | null): Record<string, string> => ({
  sortedColumn: 'time',
  sortDirection: 'ascending',
  ...(c ? { since: String(c.time), sinceMessageId: c.id } : {}),
});

/** For a paged list of log lines sorted newest first (chat). */
export const logCursor: ListCursor<LogMessage> = {
  order: newestFirst,
  after: (m) => linesAfter(cursorOf(m)),
};
