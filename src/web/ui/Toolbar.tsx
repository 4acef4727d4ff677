// A row of buttons, one per command id: the command's title and key, and when it cannot run,
// the reason (as a tooltip, with the button still focusable so keyboard users can read it). The
// first few stay in the row, the others are in a More actions menu.

import { Menu, MenuButton, MenuItems } from '@headlessui/react';
import { useStore } from 'jotai';
import { useEffect, useRef } from 'react';
import type { Selection } from '../../../commands/context.ts';
import type { Command } from '../../../commands/registry.ts';
import { type CommandRuntime, useCommandRuntime } from '../app/runtime.ts';
import { keyLabels } from '../palette/keyLabels.ts';
import { CommandMenuItem, commandEntries } from './ContextMenu.tsx';
import { isTextField, keyNames } from './keyNames.ts';
import { runOrPrompt } from './runCommand.ts';
import { Tooltip } from './Tooltip.tsx';

export interface ToolbarProps {
  /** A list of app/menus.ts. */
  commandIds: readonly string[];
  label: string;
  /** The rows or entity the toolbar acts on, when not the pane's selection; arguments come from it. */
  selection?: Selection;
}

/**
 * Buttons kept in the row; the rest wait in More actions, so a toolbar stays one row (their keys
 * work all the same).
 */
const MAIN_ACTIONS = 5;

export function Toolbar({ commandIds, label, selection }: ToolbarProps) {
  const runtime = useCommandRuntime();
  const store = useStore();
  const base = runtime.context('toolbar');
  const ctx = selection ? { ...base, selection } : base;
  const items = commandEntries(commandIds, ctx, (id) => runtime.registry.get(id));
  const ref = useRef<HTMLDivElement>(null);
  useEntityKeys(ref, runtime, commandIds, selection);
  const run = (cmd: Command) => runOrPrompt(runtime, cmd, {}, 'toolbar', { selection, store });
  const main = items.slice(0, MAIN_ACTIONS);
  const more = items.slice(MAIN_ACTIONS);
  return (
    <div ref={ref} role="toolbar" aria-label={label} className="ui-toolbar">
      {main.map(({ cmd, reason }) => (
        <Tooltip key={cmd.id} text={reason === true ? cmd.description : reason}>
          <button
            type="button"
            className="ui-button"
            aria-disabled={reason !== true || undefined}
            onClick={() => {
              if (reason === true) run(cmd);
            }}
          >
            {cmd.title}
            {cmd.keys?.[0] && <kbd className="ui-key">{keyLabels(cmd.keys[0]).join(' ')}</kbd>}
          </button>
        </Tooltip>
      ))}
      {more.length > 0 && (
        <Menu>
          <MenuButton className="ui-button">
            More actions <span aria-hidden="true">▾</span>
          </MenuButton>
          <MenuItems anchor="bottom end" className="ui-menu">
            {more.map((entry) => (
              <CommandMenuItem key={entry.cmd.id} entry={entry} onChoose={run} />
            ))}
          </MenuItems>
        </Menu>
      )}
    </div>
  );
}

/**
 * On an entity's page the toolbar acts on the entity, so the keys it shows work anywhere in its
 * pane: a list key (Give item `I`) that no list there took runs the toolbar's command on the
 * entity. A list page's toolbar has no selection of its own; its list dispatches the keys.
 */
function useEntityKeys(
  ref: React.RefObject<HTMLDivElement | null>,
  runtime: CommandRuntime,
  commandIds: readonly string[],
  selection: Selection | undefined,
) {
  const store = useStore();
  useEffect(() => {
    const pane = ref.current?.closest('[data-pane]');
    if (!selection || !pane) return;
    const onKeyDown = (e: Event) => {
      const k = e as KeyboardEvent;
      if (k.defaultPrevented || k.isComposing || isTextField(k.target)) return;
      const cmd = runtime.registry.binding('list', keyNames(k))?.command;
      if (!cmd || !commandIds.includes(cmd.id)) return;
      k.preventDefault();
      runOrPrompt(runtime, cmd, {}, 'hotkey', { selection, store });
    };
    pane.addEventListener('keydown', onKeyDown);
    return () => pane.removeEventListener('keydown', onKeyDown);
  }, [ref, runtime, commandIds, selection, store]);
}
