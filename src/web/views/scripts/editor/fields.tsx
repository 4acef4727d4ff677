// Typed inputs of the script editor: a value of a String, Number or Boolean field (a condition's
// value, an action's option, a parameter's default), and the field-placeholder inserter that puts
// {fieldName} where the cursor is, as the engine fills it when the script runs.

import { type ReactNode, useId, useRef } from 'react';
import type { FieldType } from '../../../../domain/scripts/fields.ts';
import { FIELDS, type FieldSpec, fieldsOf } from '../../../../domain/scripts/fields.ts';

export type Value = string | number | boolean | null | undefined;

/** The label, the control and the help or error under it, tied by ids. */
export function Field({
  id: fixedId,
  label,
  help,
  error,
  children,
}: {
  /** An id of its own, for a field others point at; else a generated one. */
  id?: string;
  label: string;
  help?: string;
  error?: string;
  children: (id: string, describedBy: string | undefined, invalid: boolean) => ReactNode;
}) {
  const generated = useId();
  const id = fixedId ?? generated;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const describedBy = [help ? helpId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="se-field">
      <label htmlFor={id}>{label}</label>
      {children(id, describedBy, Boolean(error))}
      {help && (
        <small id={helpId} className="se-help">
          {help}
        </small>
      )}
      {error && (
        <small id={errorId} className="se-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}

/** A number typed so far: the number, or the text while it is not one (a placeholder, "-"). */
export function numberOrText(raw: string): string | number {
  const t = raw.trim();
  return t !== '' && Number.isFinite(Number(t)) ? Number(t) : raw;
}

interface TypedInputProps {
  id: string;
  type: FieldType;
  value: Value;
  onChange(v: Value): void;
  /** The only values a String may take. */
  values?: readonly string[];
  describedBy?: string;
  invalid?: boolean;
  /** A Boolean may be left unset (an optional option). */
  optional?: boolean;
  /** The context whose fields the inserter offers; none for no inserter. */
  placeholdersOf?: string;
}

export function TypedInput(p: TypedInputProps) {
  const ref = useRef<HTMLInputElement>(null);
  const common = { id: p.id, 'aria-describedby': p.describedBy, 'aria-invalid': p.invalid || undefined };
  if (p.type === 'Boolean' || p.values) {
    const choices = p.type === 'Boolean' ? ['true', 'false'] : [...(p.values ?? [])];
    return (
      <select
        {...common}
        value={p.value === undefined || p.value === null ? '' : String(p.value)}
        onChange={(e) => {
          const v = e.target.value;
          p.onChange(v === '' ? undefined : p.type === 'Boolean' ? v === 'true' : v);
        }}
      >
        {(p.optional || p.value === undefined || p.value === null) && <option value="">(not set)</option>}
        {choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    );
  }
  const text = p.value === undefined || p.value === null ? '' : String(p.value);
  const insert = (name: string) => {
    const el = ref.current;
    const at = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? at;
    const token = `{${name}}`;
    const next = text.slice(0, at) + token + text.slice(end);
    p.onChange(p.type === 'Number' ? numberOrText(next) : next);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + token.length, at + token.length);
    });
  };
  return (
    <span className="se-typed">
      <input
        {...common}
        ref={ref}
        type="text"
        inputMode={p.type === 'Number' ? 'decimal' : undefined}
        value={text}
        onChange={(e) => p.onChange(p.type === 'Number' ? numberOrText(e.target.value) : e.target.value)}
      />
      {p.placeholdersOf !== undefined && <PlaceholderInserter context={p.placeholdersOf} onInsert={insert} />}
    </span>
  );
}

/** Fields that can stand in an action's text: valid in the context, not for conditions only. */
export const placeholderFields = (context: string) =>
  fieldsOf(context).filter((n) => !(FIELDS[n] as FieldSpec).conditionOnly);

export function PlaceholderInserter({
  context,
  onInsert,
}: {
  context: string;
  onInsert(name: string): void;
}) {
  return (
    <select
      aria-label="Insert field"
      className="se-insert"
      value=""
      onChange={(e) => {
        if (e.target.value) onInsert(e.target.value);
      }}
    >
      <option value="">Insert field…</option>
      {placeholderFields(context).map((n) => (
        <option key={n} value={n}>
          {`{${n}}`} · {(FIELDS[n] as FieldSpec).description}
        </option>
      ))}
    </select>
  );
}
