// The cron field's plain choices (every N minutes, hourly, daily at, weekly on) and the Advanced
// raw expression: each choice writes one cron expression, and an expression written by a choice
// reads back as that choice, so the editor opens a saved schedule as it was made. Times are UTC,
// as the engine runs them (src/domain/scripts/cron.ts).

import { cronSchedule } from '../../../../domain/scripts/cron.ts';

export type CronChoice =
  | { kind: 'minutes'; every: number }
  | { kind: 'hourly'; minute: number }
  | { kind: 'daily'; hour: number; minute: number }
  | { kind: 'weekly'; day: number; hour: number; minute: number }
  | { kind: 'advanced'; expression: string };

export const CRON_KINDS = [
  { kind: 'minutes', label: 'Every N minutes' },
  { kind: 'hourly', label: 'Hourly' },
  { kind: 'daily', label: 'Daily at' },
  { kind: 'weekly', label: 'Weekly on' },
  { kind: 'advanced', label: 'Advanced' },
] as const;

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function cronExpressionOf(c: CronChoice): string {
  switch (c.kind) {
    case 'minutes':
      return c.every === 1 ? '* * * * *' : `*/${c.every} * * * *`;
    case 'hourly':
      return `${c.minute} * * * *`;
    case 'daily':
      return `${c.minute} ${c.hour} * * *`;
    case 'weekly':
      return `${c.minute} ${c.hour} * * ${c.day}`;
    case 'advanced':
      return c.expression;
  }
}

const num = (s: string) => Number.parseInt(s, 10);
const MINUTE = '([0-5]?\\d)';
const HOUR = '([01]?\\d|2[0-3])';
const PLAIN: readonly [RegExp, (m: RegExpExecArray) => CronChoice][] = [
  [/^\* \* \* \* \*$/, () => ({ kind: 'minutes', every: 1 })],
  [/^\*\/([1-9]|[1-5]\d) \* \* \* \*$/, (m) => ({ kind: 'minutes', every: num(m[1]) })],
  [new RegExp(`^${MINUTE} \\* \\* \\* \\*$`), (m) => ({ kind: 'hourly', minute: num(m[1]) })],
  [
    new RegExp(`^${MINUTE} ${HOUR} \\* \\* \\*$`),
    (m) => ({ kind: 'daily', hour: num(m[2]), minute: num(m[1]) }),
  ],
  [
    new RegExp(`^${MINUTE} ${HOUR} \\* \\* ([0-6])$`),
    (m) => ({ kind: 'weekly', day: num(m[3]), hour: num(m[2]), minute: num(m[1]) }),
  ],
];

/** The plain choice that writes this expression, else Advanced with it. */
export function cronChoiceOf(expression: string): CronChoice {
  const t = expression.trim().replace(/\s+/g, ' ');
  for (const [pattern, choice] of PLAIN) {
    const m = pattern.exec(t);
    if (m) return choice(m);
  }
  return { kind: 'advanced', expression };
}

/** A new choice of `kind`, keeping the time of day the current one has. */
export function switchChoice(current: CronChoice, kind: CronChoice['kind']): CronChoice {
  const hour = 'hour' in current ? current.hour : 12;
  const minute = 'minute' in current ? current.minute : 0;
  switch (kind) {
    case 'minutes':
      return { kind, every: 15 };
    case 'hourly':
      return { kind, minute };
    case 'daily':
      return { kind, hour, minute };
    case 'weekly':
      return { kind, day: 'day' in current ? current.day : 1, hour, minute };
    case 'advanced':
      return { kind, expression: cronExpressionOf(current) };
  }
}

/** The next `count` runs after `from`, or null when the expression is not one the engine runs. */
export function nextRuns(expression: string, count = 5, from = new Date()): Date[] | null {
  const schedule = cronSchedule(expression);
  if (!schedule) return null;
  return schedule.nextRuns(count, from);
}

/** A run time as the engine keeps it: UTC, to the minute. */
export const utcText = (d: Date): string => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
