// The parameters editor (Name, Type, Default) of a script, and the same for the arguments of a
// triggered context (a command's words, a webhook's parameters), which also say whether each is
// required. Names are checked as the API checks them, as they are typed.

import type { ScriptArgumentSpec, ScriptParameter } from '../../../../domain/scripts/content.ts';
import type { FieldType } from '../../../../domain/scripts/fields.ts';
import { EditorList } from './EditorList.tsx';
import { Field, TypedInput } from './fields.tsx';

const TYPES: FieldType[] = ['String', 'Number', 'Boolean'];
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const parameterNameProblem = (name: string, all: readonly { name: string }[]): string | undefined => {
  if (!NAME.test(name)) return 'Letters, digits and _, not starting with a digit.';
  if (all.filter((p) => p.name === name).length > 1) return 'Another one has this name.';
  return undefined;
};

const blankDefault = (type: FieldType) => (type === 'Number' ? 0 : type === 'Boolean' ? false : '');

interface Props<T extends ScriptParameter> {
  name: string;
  label: string;
  noun: string;
  rows: readonly T[];
  onChange(rows: T[]): void;
  /** Arguments say whether each is required; parameters do not. */
  withRequired: boolean;
  error?: string;
  errorId?: string;
}

export function ParametersEditor<T extends ScriptParameter>(p: Props<T>) {
  return (
    <EditorList<T>
      name={p.name}
      label={p.label}
      noun={p.noun}
      rows={p.rows}
      onChange={p.onChange}
      error={p.error}
      errorId={p.errorId}
      emptyText={`No ${p.label.toLowerCase()}.`}
      newRow={() =>
        ({
          name: `${p.noun.toLowerCase()}${p.rows.length + 1}`,
          type: 'String',
          default: '',
          ...(p.withRequired ? { required: false } : {}),
        }) as unknown as T
      }
      columns={[
        { id: 'name', title: 'Name', value: (r) => r.row.name },
        { id: 'type', title: 'Type', value: (r) => r.row.type },
        { id: 'default', title: 'Default', value: (r) => String(r.row.default ?? '') },
        ...(p.withRequired
          ? [
              {
                id: 'required',
                title: 'Required',
                value: (r: { row: T }) => ((r.row as unknown as ScriptArgumentSpec).required ? 'yes' : 'no'),
              },
            ]
          : []),
      ]}
      form={(row, set) => (
        <div className="se-grid3">
          <Field label="Name" error={parameterNameProblem(row.name, p.rows)}>
            {(id, d, invalid) => (
              <input
                id={id}
                value={row.name}
                aria-describedby={d}
                aria-invalid={invalid || undefined}
                onChange={(e) => set({ ...row, name: e.target.value })}
              />
            )}
          </Field>
          <Field label="Type">
            {(id) => (
              <select
                id={id}
                value={row.type}
                onChange={(e) => {
                  const type = e.target.value as FieldType;
                  set({ ...row, type, default: blankDefault(type) });
                }}
              >
                {TYPES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Default">
            {(id, d) => (
              <TypedInput
                id={id}
                describedBy={d}
                type={row.type}
                value={row.default}
                onChange={(v) => set({ ...row, default: v ?? blankDefault(row.type) })}
              />
            )}
          </Field>
          {p.withRequired && (
            <label className="se-check">
              <input
                type="checkbox"
                checked={(row as unknown as ScriptArgumentSpec).required}
                onChange={(e) => set({ ...row, required: e.target.checked })}
              />{' '}
              Required
            </label>
          )}
        </div>
      )}
    />
  );
}
