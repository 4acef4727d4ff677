// The log view's filters: events (several), type, level (one, or "and above"), time range and an
// entity id from the lines' metadata. Text search is the list's own filter box. A value that
// cannot be used shows why beside its field and stays as typed; the list keeps the last good one.

import { Label, Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react';
import { useId, useState } from 'react';
import { LOG_EVENT_NAMES, LOG_TYPES, type LogEventName } from '../../../domain/enums.ts';
import { inWords } from '../../../domain/words.ts';
import {
  idProblem,
  isLevelChoice,
  isLogType,
  type LogCriteria,
  type LogScope,
  levelChoices,
  METADATA_ID_LABELS,
  METADATA_IDS,
  type MetadataId,
  rangeProblem,
} from './logQuery.ts';

export interface LogFiltersProps {
  criteria: LogCriteria;
  scope: LogScope;
  onChange(patch: Partial<LogCriteria>): void;
}

/** `<input type="datetime-local">` works in local time without seconds. */
const toLocalInput = (epoch: number | null) => {
  if (epoch === null) return '';
  const d = new Date(epoch * 1000);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (v: string): number | null => (v ? new Date(v).getTime() / 1000 : null);

function EventsFilter({ value, onChange }: { value: LogEventName[]; onChange(v: LogEventName[]): void }) {
  return (
    // A visible label, as the time fields have: the button is named "Events" and what it shows
    // ("Events, 2 events"), so the words on screen are the words that reach it (WCAG 2.5.3).
    <Listbox as="div" className="log-filter" value={value} onChange={onChange} multiple>
      <Label>Events</Label>
      <ListboxButton className="ui-button log-filter-events">
        {value.length === 0
          ? 'All events'
          : value.length === 1
            ? inWords(value[0])
            : `${value.length} events`}
      </ListboxButton>
      <ListboxOptions anchor="bottom start" className="ui-menu log-events-menu">
        {LOG_EVENT_NAMES.map((e) => (
          <ListboxOption key={e} value={e} className="ui-menu-item log-event-option">
            {({ selected }) => (
              <>
                <span aria-hidden="true" className="log-check">
                  {selected ? '✓' : ''}
                </span>
                {inWords(e)}
              </>
            )}
          </ListboxOption>
        ))}
      </ListboxOptions>
    </Listbox>
  );
}

function TimeRange({ criteria, onChange }: Pick<LogFiltersProps, 'criteria' | 'onChange'>) {
  const [draft, setDraft] = useState({ from: toLocalInput(criteria.from), to: toLocalInput(criteria.to) });
  // A range set elsewhere (brushed on the volume chart) shows here; a draft being typed, whose
  // criteria have not moved, stays as typed.
  const [shown, setShown] = useState({ from: criteria.from, to: criteria.to });
  if (shown.from !== criteria.from || shown.to !== criteria.to) {
    setShown({ from: criteria.from, to: criteria.to });
    setDraft({ from: toLocalInput(criteria.from), to: toLocalInput(criteria.to) });
  }
  const errorId = useId();
  const from = fromLocalInput(draft.from);
  const to = fromLocalInput(draft.to);
  const problem = rangeProblem(from, to);
  const update = (next: typeof draft) => {
    setDraft(next);
    const f = fromLocalInput(next.from);
    const t = fromLocalInput(next.to);
    if (!rangeProblem(f, t)) onChange({ from: f, to: t });
  };
  return (
    <>
      {(['from', 'to'] as const).map((end) => (
        <label key={end} className="log-filter">
          <span>{end === 'from' ? 'From' : 'To'}</span>
          <input
            type="datetime-local"
            className="ui-input"
            value={draft[end]}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? errorId : undefined}
            onChange={(e) => update({ ...draft, [end]: e.target.value })}
          />
        </label>
      ))}
      {problem && (
        <span id={errorId} role="alert" className="log-filter-error">
          {problem}
        </span>
      )}
    </>
  );
}

function EntityIdFilter({ criteria, scope, onChange }: LogFiltersProps) {
  const kinds = METADATA_IDS.filter((k) => !scope[k]);
  const first = kinds.find((k) => criteria.ids[k]) ?? kinds[0];
  const [kind, setKind] = useState<MetadataId | undefined>(first);
  const [text, setText] = useState(first ? (criteria.ids[first] ?? '') : '');
  const errorId = useId();
  if (!kind) return null;
  const problem = idProblem(kind, text);
  const apply = (k: MetadataId, v: string) => {
    if (!idProblem(k, v)) onChange({ ids: v.trim() ? { [k]: v.trim() } : {} });
  };
  return (
    <>
      <select
        className="ui-input"
        aria-label="Entity id kind"
        value={kind}
        onChange={(e) => {
          const k = e.target.value as MetadataId;
          setKind(k);
          apply(k, text);
        }}
      >
        {kinds.map((k) => (
          <option key={k} value={k}>
            {METADATA_ID_LABELS[k]}
          </option>
        ))}
      </select>
      <input
        className="ui-input log-filter-id"
        aria-label={METADATA_ID_LABELS[kind]}
        placeholder={METADATA_ID_LABELS[kind]}
        value={text}
        spellCheck={false}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? errorId : undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => apply(kind, text)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply(kind, text);
        }}
      />
      {problem && (
        <span id={errorId} role="alert" className="log-filter-error">
          {problem}
        </span>
      )}
    </>
  );
}

export function LogFilters({ criteria, scope, onChange }: LogFiltersProps) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of filters, not a form that submits.
    <div className="log-filters" role="group" aria-label="Log filters">
      <EventsFilter value={criteria.events} onChange={(events) => onChange({ events })} />
      <select
        className="ui-input"
        aria-label="Type"
        value={criteria.type}
        onChange={(e) => onChange({ type: isLogType(e.target.value) ? e.target.value : '' })}
      >
        <option value="">Any type</option>
        {LOG_TYPES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <select
        className="ui-input"
        aria-label="Level"
        value={criteria.level}
        onChange={(e) => onChange({ level: isLevelChoice(e.target.value) ? e.target.value : '' })}
      >
        {levelChoices().map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <TimeRange criteria={criteria} onChange={onChange} />
      <EntityIdFilter criteria={criteria} scope={scope} onChange={onChange} />
    </div>
  );
}
