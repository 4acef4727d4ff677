// Column visibility for a list: a popover of checkboxes. A Headless UI Menu would close on every
// toggle and forces role=menuitem, which cannot say "checked"; real checkboxes can, and several
// columns can be toggled in one visit. ↑/↓ move between them, Space toggles, Esc closes.

import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import type { KeyboardEvent, Ref } from 'react';

export interface ColumnsMenuProps {
  columns: readonly { id: string; title: string }[];
  visible: readonly string[];
  onToggle(id: string): void;
  /** The button, so the list's `ui.list.columns` command can open it. */
  buttonRef?: Ref<HTMLButtonElement>;
}

function moveFocus(e: KeyboardEvent<HTMLElement>) {
  const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
  if (step === 0) return;
  const boxes = [...e.currentTarget.querySelectorAll<HTMLInputElement>('input[type=checkbox]')];
  const at = boxes.indexOf(document.activeElement as HTMLInputElement);
  boxes[(at + step + boxes.length) % boxes.length]?.focus();
  e.preventDefault();
}

export function ColumnsMenu({ columns, visible, onToggle, buttonRef }: ColumnsMenuProps) {
  return (
    <Popover>
      <PopoverButton ref={buttonRef} className="ui-button ui-columns-button">
        Columns
      </PopoverButton>
      <PopoverPanel anchor="bottom end" focus className="ui-menu" aria-label="Visible columns">
        <fieldset className="ui-columns" onKeyDown={moveFocus}>
          <legend className="ui-columns-legend">Visible columns</legend>
          {columns.map((c) => (
            <label key={c.id} className="ui-menu-item">
              <input
                type="checkbox"
                className="ui-check"
                checked={visible.includes(c.id)}
                onChange={() => onToggle(c.id)}
              />
              <span className="ui-menu-title">{c.title}</span>
            </label>
          ))}
        </fieldset>
      </PopoverPanel>
    </Popover>
  );
}
