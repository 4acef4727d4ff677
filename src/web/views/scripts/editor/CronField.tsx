// The schedule of a cron event: plain choices (every N minutes, hourly, daily at, weekly on) or
// an Advanced raw expression, and the next five run times the engine would keep (UTC).

import { useId, useState } from 'react';
import {
  CRON_KINDS,
  type CronChoice,
  cronChoiceOf,
  cronExpressionOf,
  nextRuns,
  switchChoice,
  utcText,
  WEEKDAYS,
} from './cronChoices.ts';
import { Field } from './fields.tsx';

const clamp = (v: string, max: number, min = 0) => Math.max(min, Math.min(max, Number.parseInt(v, 10) || 0));
const pad = (n: number) => String(n).padStart(2, '0');

function TimeOfDay({ c, set }: { c: { hour: number; minute: number }; set(h: number, m: number): void }) {
  return (
    <Field label="At (UTC)" help="Hours and minutes, 24-hour clock">
      {(id, d) => (
        <input
          id={id}
          type="time"
          aria-describedby={d}
          value={`${pad(c.hour)}:${pad(c.minute)}`}
          onChange={(e) => {
            const [h, m] = e.target.value.split(':');
            set(clamp(h, 23), clamp(m, 59));
          }}
        />
      )}
    </Field>
  );
}

export function CronField({
  expression,
  onChange,
  error,
}: {
  expression: string;
  onChange(expression: string): void;
  error?: string;
}) {
  // Advanced, once chosen, stays chosen though the expression would read as a plain choice.
  const [advanced, setAdvanced] = useState(false);
  const choice: CronChoice = advanced ? { kind: 'advanced', expression } : cronChoiceOf(expression);
  const set = (c: CronChoice) => onChange(cronExpressionOf(c));
  const runs = nextRuns(expression);
  const runsId = useId();
  return (
    <fieldset className="se-cron">
      <legend>Schedule</legend>
      <Field label="Runs">
        {(id) => (
          <select
            id={id}
            value={choice.kind}
            onChange={(e) => {
              const kind = e.target.value as CronChoice['kind'];
              setAdvanced(kind === 'advanced');
              set(switchChoice(choice, kind));
            }}
          >
            {CRON_KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {choice.kind === 'minutes' && (
        <Field label="Every (minutes)" help="1 to 59">
          {(id, d) => (
            <input
              id={id}
              type="number"
              min={1}
              max={59}
              aria-describedby={d}
              value={choice.every}
              onChange={(e) => set({ kind: 'minutes', every: clamp(e.target.value, 59, 1) })}
            />
          )}
        </Field>
      )}
      {choice.kind === 'hourly' && (
        <Field label="At minute" help="0 to 59 past each hour">
          {(id, d) => (
            <input
              id={id}
              type="number"
              min={0}
              max={59}
              aria-describedby={d}
              value={choice.minute}
              onChange={(e) => set({ kind: 'hourly', minute: clamp(e.target.value, 59) })}
            />
          )}
        </Field>
      )}
      {choice.kind === 'weekly' && (
        <Field label="On">
          {(id) => (
            <select
              id={id}
              value={choice.day}
              onChange={(e) => set({ ...choice, day: Number(e.target.value) })}
            >
              {WEEKDAYS.map((d, i) => (
                <option key={d} value={i}>
                  {d}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {(choice.kind === 'daily' || choice.kind === 'weekly') && (
        <TimeOfDay c={choice} set={(hour, minute) => set({ ...choice, hour, minute })} />
      )}
      <Field
        label="Cron expression"
        help="Five fields (minute hour day month weekday), names and steps, or @hourly, @daily…"
        error={
          error ?? (runs ? undefined : `${expression || 'An empty schedule'} is not a valid cron expression.`)
        }
      >
        {(id, d, invalid) => (
          <input
            id={id}
            value={expression}
            readOnly={choice.kind !== 'advanced'}
            aria-describedby={d}
            aria-invalid={invalid || undefined}
            onChange={(e) => onChange(e.target.value)}
          />
        )}
      </Field>
      <div className="se-next-runs">
        <h5 id={runsId}>Next five runs</h5>
        {runs ? (
          <ol aria-labelledby={runsId}>
            {runs.map((r) => (
              <li key={r.toISOString()}>{utcText(r)}</li>
            ))}
          </ol>
        ) : (
          <p>None until the expression is valid.</p>
        )}
      </div>
    </fieldset>
  );
}
