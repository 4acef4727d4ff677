// Any command as a form (DESIGN "Dialogs"): one field per argument of its schema, each parsed by
// the schema's own Arg.parse, so the form, the palette and the console give the same messages.
// A refusal, the form's or the command's, keeps every value and shows its message beside the
// field it names. Give Item and the Custom Dino Creator build richer dialogs on these fields.

import {
  Checkbox,
  Combobox,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Description,
  Field,
  Input,
  Label,
  Listbox,
  ListboxButton,
  ListboxOption,
  ListboxOptions,
} from '@headlessui/react';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import {
  type Arg,
  type EntityLookup,
  type EntityRef,
  isYes,
  type ParseResult,
  splitList,
} from '../../../commands/args.ts';
import type { Command } from '../../../commands/registry.ts';
import { describeFailure, type RunFailure } from '../palette/prompt.ts';
import { BlueprintPicker } from './BlueprintPicker.tsx';

/**
 * What one field holds: the text shown, and the entities picked from the suggestions, taken by id
 * while their label is still what the text says (two players may share a name).
 */
export interface FieldValue {
  raw: string;
  picked?: EntityRef;
  /** For a list: every entity picked for one of its items. */
  items?: EntityRef[];
}

export interface ArgFormProps {
  cmd: Command;
  lookup: EntityLookup;
  /** What is known already, by argument name: text as typed (the console line) or values (the view's). */
  initial?: Record<string, unknown>;
  /** Runs the command; what it throws keeps the form open, beside the field it names. */
  onSubmit(values: Record<string, unknown>): Promise<void>;
  onCancel(): void;
}

const SUGGESTIONS = 20;

const isRef = (v: unknown): v is EntityRef =>
  typeof v === 'object' && v !== null && 'kind' in v && 'id' in v && 'label' in v;

/** A known value as the field shows it: entities by label (taken by id while unchanged), the rest as text. */
export function fieldValue(arg: Arg<unknown>, v: unknown): FieldValue {
  if (isRef(v)) return { raw: v.label, picked: v };
  if (Array.isArray(v))
    return { raw: v.map((x) => (isRef(x) ? x.label : String(x))).join(', '), items: v.filter(isRef) };
  if (typeof v === 'boolean') return { raw: v ? 'yes' : 'no' };
  if (v === undefined || v === null) return { raw: arg.type === 'boolean' ? 'no' : '' };
  return { raw: String(v) };
}

const labelOf = (name: string, arg: Arg<unknown>) => arg.label ?? name;

/** One field's value, with the message the console would give for the same text. */
export async function parseField(
  name: string,
  arg: Arg<unknown>,
  v: FieldValue,
  lookup: EntityLookup,
): Promise<ParseResult<unknown>> {
  if (v.picked && v.picked.label === v.raw) return { ok: true, value: v.picked };
  const blank = v.raw.trim() === '';
  if (blank && arg.isOptional) return { ok: true, value: arg.defaultValue };
  const r = v.items?.length ? await parseItems(arg, v, lookup) : await arg.parse(v.raw, lookup);
  return r.ok && blank ? { ok: false, error: `${labelOf(name, arg)} is required.` } : r;
}

/**
 * Every named field parsed as its argument's schema parses it: the values, and each refused
 * field's message by name (the form shows them all at once, not the first alone).
 */
export async function parseFields<N extends string>(
  names: readonly N[],
  args: Readonly<Record<string, Arg<unknown>>>,
  values: Readonly<Record<string, FieldValue>>,
  lookup: EntityLookup,
): Promise<{ parsed: Record<string, unknown>; found: Partial<Record<N, string>> }> {
  const parsed: Record<string, unknown> = {};
  const found: Partial<Record<N, string>> = {};
  for (const name of names) {
    const r = await parseField(name, args[name], values[name], lookup);
    if (r.ok) parsed[name] = r.value;
    else found[name] = r.error;
  }
  return { parsed, found };
}

/** A list whose items may be entities picked by label: those by id, the rest as the schema parses them. */
async function parseItems(
  arg: Arg<unknown>,
  v: FieldValue,
  lookup: EntityLookup,
): Promise<ParseResult<unknown>> {
  const out: unknown[] = [];
  // In order, each pick once: `Ana Dubois, Ana Dubois` are the two picked, not one twice.
  const unused = [...(v.items ?? [])];
  for (const text of splitList(v.raw)) {
    const at = unused.findIndex((r) => r.label === text);
    const picked = at < 0 ? undefined : unused.splice(at, 1)[0];
    const r = picked ? { ok: true as const, value: picked } : await arg.item!.parse(text, lookup);
    if (!r.ok) return r;
    out.push(r.value);
  }
  return { ok: true, value: out };
}

/** What a field says under its label: the argument's help, or what its value looks like in words. */
function hint(arg: Arg<unknown>): string {
  const { min, max } = arg.bounds;
  const range =
    arg.type === 'number' && (min !== undefined || max !== undefined)
      ? ` (${min ?? '…'} to ${max ?? '…'})`
      : '';
  const text = arg.help ? `${arg.help}${range}` : arg.hint();
  return [text, arg.isOptional ? 'optional' : ''].filter(Boolean).join(' · ');
}

export interface FieldProps {
  name: string;
  arg: Arg<unknown>;
  value: FieldValue;
  error?: string;
  lookup: EntityLookup;
  autoFocus: boolean;
  onChange(v: FieldValue): void;
}

interface Option {
  text: string;
  ref?: EntityRef;
}

/** Entities for a reference, the schema's completions (list items, durations) for the rest. */
function options(arg: Arg<unknown>, raw: string, lookup: EntityLookup): Option[] {
  if (arg.type === 'ref')
    return lookup.search(arg.kinds ?? [], raw, SUGGESTIONS).map((ref) => ({ text: ref.label, ref }));
  if (arg.type === 'list' && arg.item?.type === 'ref') {
    const head = raw.slice(0, raw.lastIndexOf(',') + 1);
    return lookup
      .search(arg.kinds ?? [], raw.slice(head.length).trim(), SUGGESTIONS)
      .map((ref) => ({ text: `${head}${head ? ' ' : ''}${ref.label}`, ref }));
  }
  return arg.complete(raw, lookup, SUGGESTIONS).map((text) => ({ text }));
}

function CompletingInput({ arg, value, error, lookup, autoFocus, onChange }: FieldProps) {
  // Searched when the text changes, not on every render of the form.
  const shown = useMemo(() => options(arg, value.raw, lookup), [arg, value.raw, lookup]);
  return (
    <Combobox<Option | null>
      value={value.picked ? { text: value.picked.label, ref: value.picked } : null}
      onChange={(o) =>
        o &&
        onChange(
          arg.type === 'list'
            ? { raw: o.text, items: o.ref ? [...(value.items ?? []), o.ref] : value.items }
            : { raw: o.text, picked: o.ref },
        )
      }
    >
      <ComboboxInput
        className="ui-input"
        autoFocus={autoFocus}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        displayValue={() => value.raw}
        onChange={(e) => onChange({ raw: e.target.value, items: value.items })}
      />
      {shown.length > 0 && (
        <ComboboxOptions anchor="bottom start" modal={false} className="ui-menu argform-options">
          {shown.map((o) => (
            <ComboboxOption
              key={o.ref ? `${o.ref.kind}:${o.ref.id}` : o.text}
              value={o}
              className="ui-menu-item"
            >
              {o.ref?.label ?? o.text}
              {o.ref?.detail && <span className="argform-detail">{o.ref.detail}</span>}
            </ComboboxOption>
          ))}
        </ComboboxOptions>
      )}
    </Combobox>
  );
}

function Swatch({ arg, value }: { arg: Arg<unknown>; value: string }) {
  return arg.widget === 'colour' ? <span className={`color-dot color-${value}`} aria-hidden="true" /> : null;
}

/**
 * A choice as a form shows it, with a capital as the rest of the page has ("Purple", as the
 * server list says it); the console types it in any case.
 */
const shownChoice = (c: string) => c.charAt(0).toUpperCase() + c.slice(1);

function Choice({ name, arg, value, error, autoFocus, onChange }: FieldProps) {
  const choices = [...(arg.isOptional ? [''] : []), ...(arg.values ?? [])];
  return (
    <Listbox value={value.raw} onChange={(raw: string) => onChange({ raw })}>
      <ListboxButton
        className="ui-button argform-choice"
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
      >
        <Swatch arg={arg} value={value.raw} />
        {value.raw ? shownChoice(value.raw) : `Choose ${labelOf(name, arg).toLowerCase()}`}
      </ListboxButton>
      <ListboxOptions anchor="bottom start" className="ui-menu argform-options">
        {choices.map((c) => (
          <ListboxOption key={c} value={c} className="ui-menu-item">
            <Swatch arg={arg} value={c} />
            {c ? shownChoice(c) : '(none)'}
          </ListboxOption>
        ))}
      </ListboxOptions>
    </Listbox>
  );
}

/** A class path typed, or chosen in the blueprint picker (Give Item's "item path or choose"). */
function BlueprintField({ name, arg, value, error, autoFocus, onChange }: FieldProps) {
  const [picking, setPicking] = useState(false);
  return (
    <div className="argform-blueprint">
      <Input
        className="ui-input"
        autoFocus={autoFocus}
        autoComplete="off"
        invalid={!!error}
        value={value.raw}
        onChange={(e) => onChange({ raw: e.target.value })}
      />
      <button type="button" className="ui-button" onClick={() => setPicking(true)}>
        Choose {labelOf(name, arg).toLowerCase()}…
      </button>
      {picking && (
        <BlueprintPicker
          kind={arg.blueprint!}
          initialText={value.raw.startsWith('/') ? '' : value.raw}
          onPick={(path) => {
            onChange({ raw: path });
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      )}
    </div>
  );
}

/** One argument as a labelled field with its hint and message: forms beyond ArgForm build on it. */
export function ArgField(props: FieldProps) {
  const { name, arg, value, error, autoFocus, onChange } = props;
  const control =
    arg.type === 'blueprint' ? (
      <BlueprintField {...props} />
    ) : arg.type === 'boolean' ? (
      <Checkbox
        className="argform-check"
        checked={isYes(value.raw)}
        onChange={(on) => onChange({ raw: on ? 'yes' : 'no' })}
        autoFocus={autoFocus}
      >
        <span aria-hidden="true">{isYes(value.raw) ? '✓' : ''}</span>
      </Checkbox>
    ) : arg.type === 'enum' ? (
      <Choice {...props} />
    ) : arg.type === 'ref' || arg.type === 'list' || arg.type === 'duration' || arg.suggestions ? (
      <CompletingInput {...props} />
    ) : (
      <Input
        className="ui-input"
        autoFocus={autoFocus}
        autoComplete="off"
        inputMode={arg.type === 'number' ? 'decimal' : undefined}
        type={arg.isSecret ? 'password' : undefined}
        invalid={!!error}
        value={value.raw}
        onChange={(e) => onChange({ raw: e.target.value })}
      />
    );
  return (
    <Field className="argform-field" data-arg={name}>
      <Label className="argform-label">{labelOf(name, arg)}</Label>
      {control}
      <Description className="argform-hint">{hint(arg)}</Description>
      {error && <Description className="argform-error">{error}</Description>}
    </Field>
  );
}

export function ArgForm({ cmd, lookup, initial = {}, onSubmit, onCancel }: ArgFormProps) {
  const args = Object.entries(cmd.args ?? {});
  const [values, setValues] = useState<Record<string, FieldValue>>(() =>
    Object.fromEntries(args.map(([name, arg]) => [name, fieldValue(arg, initial[name])])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<RunFailure | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  // After a refusal, focus goes to the first field it is about, where its message is read out.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  // Fields that mean nothing with the values chosen (exact stats while stats are natural) are
  // neither shown nor sent.
  const chosen = (name: string) => values[name]?.raw || String(cmd.args?.[name]?.defaultValue ?? '');
  const shown = args.filter(([, arg]) => !arg.when || arg.when.is.includes(chosen(arg.when.arg)));

  const change = (name: string, v: FieldValue) => {
    setValues((cur) => ({ ...cur, [name]: v }));
    setErrors(({ [name]: _, ...rest }) => rest);
    setFailure(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      const { parsed, found } = await parseFields(
        shown.map(([name]) => name),
        cmd.args ?? {},
        values,
        lookup,
      );
      setErrors(found as Record<string, string>);
      if (Object.keys(found).length > 0) {
        setRefusals((n) => n + 1);
        return;
      }
      await onSubmit(parsed);
    } catch (err) {
      const f = describeFailure(err);
      if (f.field && f.field in values) {
        setErrors({ [f.field]: f.reason ? `${f.summary} ${f.reason}` : f.summary });
        setRefusals((n) => n + 1);
      } else setFailure(f);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={formRef}
      className="argform"
      onSubmit={submit}
      // Ctrl+Enter submits from any field, a checkbox or a choice included (Enter acts on those),
      // and from a field whose suggestions are open: taken before the field's own keys, which
      // would only close the list.
      onKeyDownCapture={(e) => {
        if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return;
        e.preventDefault();
        e.stopPropagation();
        formRef.current?.requestSubmit();
      }}
      aria-label={cmd.title}
      noValidate
    >
      {shown.map(([name, arg], i) => (
        <ArgField
          key={name}
          name={name}
          arg={arg}
          value={values[name]}
          error={errors[name]}
          lookup={lookup}
          autoFocus={i === 0}
          onChange={(v) => change(name, v)}
        />
      ))}
      {failure && (
        <div className="argform-failure" role="alert">
          {failure.summary}
          {failure.reason && <div className="argform-reason">{failure.reason}</div>}
        </div>
      )}
      <div className="ui-dialog-actions">
        <button type="button" className="ui-button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="ui-button ui-button-primary" aria-busy={busy || undefined}>
          {cmd.title}
        </button>
      </div>
    </form>
  );
}
