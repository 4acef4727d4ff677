// The Simple (Workflow) editor, read from the engine's catalogue (src/domain/scripts): conditions
// as Field, Operator, Value with Match All or Any, and actions with their Options, each option a
// field of its catalogue type. It edits the JSON the engine runs ({match, conditions, actions});
// code that is not that JSON (an imported file gone wrong) is shown as text to mend, not dropped.

import {
  ACTION_TYPES,
  ACTIONS,
  type ActionType,
  type OptionSpec,
} from '../../../../domain/scripts/actions.ts';
import { emptySimple, simpleCode } from '../../../../domain/scripts/content.ts';
import { FIELDS, type FieldSpec, fieldsOf } from '../../../../domain/scripts/fields.ts';
import { OPERATORS } from '../../../../domain/scripts/operators.ts';
import type { Action, Condition, SimpleScript } from '../../../../domain/scripts/simple.ts';
import { actionLabel, operatorLabel, optionsSummary } from '../../../../domain/scripts/simpleText.ts';
import { inWords } from '../../../../domain/words.ts';
import { EditorList } from './EditorList.tsx';
import { Field, TypedInput, type Value } from './fields.tsx';

/** The Simple script in `code`, or null when it is not Simple JSON. */
export function readSimple(code: string): SimpleScript | null {
  if (code.trim() === '') return emptySimple();
  try {
    const d = JSON.parse(code) as Partial<SimpleScript>;
    if (typeof d !== 'object' || d === null || Array.isArray(d)) return null;
    return {
      match: d.match === 'any' ? 'any' : 'all',
      conditions: Array.isArray(d.conditions) ? d.conditions : [],
      actions: Array.isArray(d.actions) ? d.actions : [],
    };
  } catch {
    return null;
  }
}

const fieldSpec = (name: string): FieldSpec | undefined => (FIELDS as Record<string, FieldSpec>)[name];
const defaultValue = (f: FieldSpec | undefined): Condition['value'] =>
  f?.type === 'Number' ? 0 : f?.type === 'Boolean' ? true : '';

export function newCondition(context: string): Condition {
  const field = fieldsOf(context).includes('message') ? 'message' : (fieldsOf(context)[0] ?? 'serviceName');
  const spec = fieldSpec(field);
  return { field, operator: Object.keys(OPERATORS[spec?.type ?? 'String'])[0], value: defaultValue(spec) };
}

export interface SimpleEditorProps {
  context: string;
  code: string;
  onChange(code: string): void;
  /** What the save said is wrong with the code. */
  error?: string;
  errorId?: string;
}

function ConditionForm({ context, c, set }: { context: string; c: Condition; set(c: Condition): void }) {
  const spec = fieldSpec(c.field);
  const type = spec?.type ?? 'String';
  return (
    <div className="se-grid3">
      <Field label="Field" help={spec?.description}>
        {(id, d) => (
          <select
            id={id}
            aria-describedby={d}
            value={c.field}
            onChange={(e) => {
              const next = fieldSpec(e.target.value);
              const sameType = next?.type === type;
              set({
                field: e.target.value,
                operator: sameType ? c.operator : Object.keys(OPERATORS[next?.type ?? 'String'])[0],
                value: sameType ? c.value : defaultValue(next),
              });
            }}
          >
            {fieldsOf(context).map((n) => (
              <option key={n} value={n}>
                {inWords(n)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Operator">
        {(id) => (
          <select id={id} value={c.operator} onChange={(e) => set({ ...c, operator: e.target.value })}>
            {Object.entries(OPERATORS[type]).map(([name, op]) => (
              <option key={name} value={name}>
                {op.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Value">
        {(id, d) => (
          <TypedInput
            id={id}
            describedBy={d}
            type={type}
            value={c.value}
            onChange={(v) => set({ ...c, value: (v ?? defaultValue(spec)) as Condition['value'] })}
          />
        )}
      </Field>
    </div>
  );
}

function ActionForm({ context, a, set }: { context: string; a: Action; set(a: Action): void }) {
  const spec = (ACTIONS as Record<string, { description: string; options: readonly OptionSpec[] }>)[a.type];
  const setOption = (name: string, v: Value) => {
    const { [name]: _, ...rest } = a.options ?? {};
    set({ ...a, options: v === undefined || v === '' ? rest : { ...rest, [name]: v } });
  };
  return (
    <div className="se-action">
      <Field label="Action" help={spec?.description}>
        {(id, d) => (
          <select
            id={id}
            aria-describedby={d}
            value={a.type}
            onChange={(e) => set({ type: e.target.value as ActionType, options: {} })}
          >
            {ACTION_TYPES.map((t) => (
              <option key={t} value={t}>
                {ACTIONS[t].label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {spec && spec.options.length > 0 && (
        <fieldset className="se-options">
          <legend>Options</legend>
          {spec.options.map((o) => (
            <Field
              key={o.name}
              label={`${inWords(o.name)}${o.required ? ' (required)' : ''}`}
              help={o.description}
            >
              {(id, d) => (
                <TypedInput
                  id={id}
                  describedBy={d}
                  type={o.type}
                  values={o.values}
                  optional={!o.required}
                  value={a.options?.[o.name] as Value}
                  onChange={(v) => setOption(o.name, v)}
                  placeholdersOf={o.values ? undefined : context}
                />
              )}
            </Field>
          ))}
        </fieldset>
      )}
    </div>
  );
}

export function SimpleEditor({ context, code, onChange, error, errorId }: SimpleEditorProps) {
  const script = readSimple(code);
  if (!script)
    return (
      <div className="se-field">
        <label htmlFor={`${errorId}-raw`}>
          Simple script (not readable as Simple JSON; mend or clear it)
        </label>
        <textarea
          id={`${errorId}-raw`}
          value={code}
          rows={8}
          aria-invalid
          aria-describedby={errorId}
          onChange={(e) => onChange(e.target.value)}
        />
        <button type="button" className="ui-button" onClick={() => onChange(simpleCode(emptySimple()))}>
          Start over
        </button>
        {error && (
          <p className="se-error" id={errorId} role="alert">
            {error}
          </p>
        )}
      </div>
    );
  const update = (s: Partial<SimpleScript>) => onChange(simpleCode({ ...script, ...s }));
  return (
    <div className="se-simple">
      <fieldset className="se-match">
        <legend>Match</legend>
        {(['all', 'any'] as const).map((m) => (
          <label key={m}>
            <input
              type="radio"
              name={`match-${errorId}`}
              checked={script.match === m}
              onChange={() => update({ match: m })}
            />{' '}
            {m === 'all' ? 'All conditions' : 'Any condition'}
          </label>
        ))}
      </fieldset>
      <h4>Conditions</h4>
      <EditorList<Condition>
        name="conditions"
        label="Conditions"
        noun="Condition"
        rows={script.conditions}
        onChange={(conditions) => update({ conditions })}
        newRow={() => newCondition(context)}
        emptyText="No conditions: the actions run on every event."
        columns={[
          { id: 'field', title: 'Field', value: (r) => inWords(r.row.field) },
          { id: 'operator', title: 'Operator', value: (r) => operatorLabel(r.row) },
          { id: 'value', title: 'Value', value: (r) => String(r.row.value) },
        ]}
        form={(c, set) => <ConditionForm context={context} c={c} set={set} />}
      />
      <h4>Actions</h4>
      <EditorList<Action>
        name="actions"
        label="Actions"
        noun="Action"
        rows={script.actions}
        onChange={(actions) => update({ actions })}
        newRow={() => ({ type: 'sendChat', options: {} })}
        emptyText="No actions yet."
        error={error}
        errorId={errorId}
        columns={[
          { id: 'action', title: 'Action', value: (r) => actionLabel(r.row) },
          { id: 'options', title: 'Options', value: (r) => optionsSummary(r.row), width: '3fr' },
        ]}
        form={(a, set) => <ActionForm context={context} a={a} set={set} />}
      />
    </div>
  );
}
