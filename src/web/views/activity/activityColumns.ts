// The Activity list's columns, one per cell of domain/activity.ts: the same cells the console
// prints and the CSV holds, so the three never disagree.

import { ACTIVITY_HEADINGS, type ActivityEntry, activityCells } from '../../../domain/activity.ts';
import { formatTime } from '../../../domain/format.ts';
import type { Column } from '../../ui/columns.ts';

const WIDTHS: Record<(typeof ACTIVITY_HEADINGS)[number], string> = {
  Time: '11rem',
  User: '10rem',
  Kind: '9rem',
  Action: '7rem',
  Target: '9rem',
  Summary: 'minmax(12rem, 3fr)',
  Outcome: '8rem',
};

export const ACTIVITY_COLUMNS: readonly Column<ActivityEntry>[] = ACTIVITY_HEADINGS.map((title, i) => ({
  id: title.toLowerCase(),
  title,
  width: WIDTHS[title],
  // The time as ISO 8601 sorts, filters and exports as itself; it shows in local time.
  value: (e: ActivityEntry) => activityCells(e)[i],
  ...(title === 'Time' ? { render: (e: ActivityEntry) => formatTime(e.time) } : {}),
}));
