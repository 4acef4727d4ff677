// The Activity list as CSV, loaded with papaparse on the first export.

import type { ActivityEntry } from '../../../domain/activity.ts';
import { toCsv } from '../../ui/csv.ts';
import { ACTIVITY_COLUMNS } from './activityColumns.ts';

/** Every column whether shown or not: a trail is evidence, nothing is left out. */
export const activityCsv = (entries: readonly ActivityEntry[]): string => toCsv(ACTIVITY_COLUMNS, entries);
