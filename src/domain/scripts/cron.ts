// Cron schedules of `cron` handlers, read by croner: five fields with names (MON-FRI, JAN) and
// steps, or a nickname such as @hourly or @daily. The engine ticks once a minute, so a pattern
// with a seconds field is refused rather than run at a pace it cannot keep. Times are UTC.

import { Cron } from 'croner';

const NICKNAME = /^@(yearly|annually|monthly|weekly|daily|hourly)$/i;

export function cronSchedule(expr: string): Cron | null {
  const text = expr.trim();
  if (!NICKNAME.test(text) && text.split(/\s+/).length !== 5) return null;
  try {
    return new Cron(text, { paused: true, timezone: 'Etc/UTC' });
  } catch {
    return null;
  }
}

export const cronExpression = (expr: string): boolean => cronSchedule(expr) !== null;

/** Whether the schedule fires in the minute that starts at `minute` (a whole UTC minute). */
export function firesAt(schedule: Cron, minute: Date): boolean {
  const next = schedule.nextRun(new Date(minute.getTime() - 1000));
  return next !== null && next.getTime() === minute.getTime();
}
