// One editable list of the script editor (conditions, actions, parameters, arguments, events): a
// VirtualList of the rows, and below it the form of the row chosen in it. Enter on a row moves to
// its form, Escape in the form returns to the list; Add makes a row and opens its form. Rows keep
// the order the user gives them (Move up, Move down): for actions the order is the order they run.

import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { type Column, VirtualList } from '../../../ui/VirtualList.tsx';

export interface Indexed<T> {
  index: number;
  row: T;
}

export interface EditorListProps<T> {
  /** The list's stored-preferences name. */
  name: string;
  label: string;
  /** One row: "Condition", "Action"… */
  noun: string;
  rows: readonly T[];
  onChange(rows: T[]): void;
  columns: readonly Column<Indexed<T>>[];
  newRow(): T;
  /** The chosen row's fields; `set` replaces the row. */
  form(row: T, set: (row: T) => void, index: number): ReactNode;
  emptyText: string;
  /** What the save said is wrong with the list, shown beside it. */
  error?: string;
  errorId?: string;
  /** Rows that cannot be removed below this count (a script keeps one event). */
  minRows?: number;
  /** The chosen row, for a caller that shows more about it (the events list). */
  onChoose?(index: number): void;
  /** A row to show in the form now (the one a refused save names); a new object each time. */
  show?: { index: number } | null;
}

const FOCUSABLE = 'input, select, textarea, button, [tabindex="0"]';

export function EditorList<T>(p: EditorListProps<T>) {
  const [chosen, setChosen] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFieldSetElement>(null);
  const current = Math.min(chosen, p.rows.length - 1);
  const indexed = p.rows.map((row, index) => ({ index, row }));
  const { onChoose } = p;

  const choose = useCallback(
    (i: number) => {
      setChosen(i);
      onChoose?.(i);
    },
    [onChoose],
  );
  // The form follows the user's moves in the list, not the list redrawing itself: after Move up
  // the list's active place holds another row, and the form stays on the row that moved.
  const listPlace = useRef<number | null>(null);
  const onSelectionChange = useCallback(
    (_marked: Indexed<T>[], active: Indexed<T> | null) => {
      if (!active || active.index === listPlace.current) return;
      listPlace.current = active.index;
      choose(active.index);
    },
    [choose],
  );

  const { show } = p;
  useEffect(() => {
    if (show) choose(show.index);
  }, [show, choose]);

  const focusForm = () =>
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus());
  const focusList = () => box.current?.querySelector<HTMLElement>('[role="grid"]')?.focus();

  const set = (i: number, row: T) => p.onChange(p.rows.map((r, j) => (j === i ? row : r)));
  const add = () => {
    p.onChange([...p.rows, p.newRow()]);
    choose(p.rows.length);
    focusForm();
  };
  const remove = (i: number) => {
    p.onChange(p.rows.filter((_, j) => j !== i));
    choose(Math.max(0, i - 1));
    focusList();
  };
  const move = (i: number, by: -1 | 1) => {
    const j = i + by;
    if (j < 0 || j >= p.rows.length) return;
    const next = [...p.rows];
    [next[i], next[j]] = [next[j], next[i]];
    p.onChange(next);
    choose(j);
  };
  const onFormKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    // In a code editor Escape is the editor's (CodeMirror: Escape, then Tab leaves it).
    const t = e.target as HTMLElement;
    if (t.tagName === 'TEXTAREA' || t.isContentEditable) return;
    e.preventDefault();
    e.stopPropagation();
    focusList();
  };

  return (
    <div className="se-list" ref={box}>
      <VirtualList<Indexed<T>>
        name={`script-editor-${p.name}`}
        label={p.label}
        rows={indexed}
        rowKey={(r) => String(r.index)}
        columns={p.columns}
        emptyText={p.emptyText}
        onOpen={(r) => {
          choose(r.index);
          focusForm();
        }}
        onSelectionChange={onSelectionChange}
        initialRect={{ width: 600, height: 160 }}
        toolbar={
          <button type="button" className="ui-button" onClick={add}>
            Add {p.noun.toLowerCase()}
          </button>
        }
      />
      {p.error && (
        <p className="se-error" id={p.errorId} role="alert">
          {p.error}
        </p>
      )}
      {current >= 0 && p.rows[current] !== undefined && (
        <fieldset className="se-row-form" ref={formRef} onKeyDown={onFormKey}>
          <legend>
            {p.noun} {current + 1} of {p.rows.length}
          </legend>
          {p.form(p.rows[current], (row) => set(current, row), current)}
          <div className="se-row-buttons">
            <button
              type="button"
              className="ui-button"
              onClick={() => move(current, -1)}
              disabled={current === 0}
            >
              Move up
            </button>
            <button
              type="button"
              className="ui-button"
              onClick={() => move(current, 1)}
              disabled={current === p.rows.length - 1}
            >
              Move down
            </button>
            <button
              type="button"
              className="ui-button"
              onClick={() => remove(current)}
              disabled={p.rows.length <= (p.minRows ?? 0)}
            >
              Remove {p.noun.toLowerCase()}
            </button>
          </div>
        </fieldset>
      )}
    </div>
  );
}
