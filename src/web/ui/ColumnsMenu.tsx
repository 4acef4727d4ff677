// Column visibility for a list: a menu of checkable column titles. The list keeps the choice in
// its preferences; this only shows it and reports toggles.

import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import type { Ref } from 'react';

export interface ColumnsMenuProps {
  columns: readonly { id: string; title: string }[];
  visible: readonly string[];
  onToggle(id: string): void;
  /** The menu button, so the list's `ui.list.columns` command can open it. */
  buttonRef?: Ref<HTMLButtonElement>;
}

export function ColumnsMenu({ columns, visible, onToggle, buttonRef }: ColumnsMenuProps) {
  return (
    <Menu>
      <MenuButton ref={buttonRef} className="ui-button ui-columns-button">
        Columns
      </MenuButton>
      <MenuItems anchor="bottom end" className="ui-menu" aria-label="Visible columns">
        {columns.map((c) => {
          const checked = visible.includes(c.id);
          return (
            <MenuItem key={c.id}>
              <button
                type="button"
                className="ui-menu-item"
                role="menuitemcheckbox"
                aria-checked={checked}
                onClick={() => onToggle(c.id)}
              >
                <span className="ui-check" aria-hidden="true">
                  {checked ? '✓' : ''}
                </span>
                <span className="ui-menu-title">{c.title}</span>
              </button>
            </MenuItem>
          );
        })}
      </MenuItems>
    </Menu>
  );
}
