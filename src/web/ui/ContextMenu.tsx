// A row's context menu: a list of command ids, each shown with its title, hotkey and, when it
// cannot run, the reason. Choosing one runs it through the runtime like any other surface.

import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useStore } from 'jotai';
import { useEffect, useRef } from 'react';
import type { CommandContext, Selection } from '../../../commands/context.ts';
import { availability, type Command, isVisible } from '../../../commands/registry.ts';
import { useCommandRuntime } from '../app/runtime.ts';
import { keyLabels } from '../palette/keyLabels.ts';
import { openMenu } from './openMenu.ts';
import { runOrPrompt } from './runCommand.ts';

export interface MenuPoint {
  x: number;
  y: number;
}

export interface ContextMenuProps {
  /** Where the menu opens (viewport pixels), or null when it is closed. */
  at: MenuPoint | null;
  /** A list of app/menus.ts. */
  commandIds: readonly string[];
  /** The rows the menu acts on: availability is judged, and arguments taken, for them. */
  selection?: Selection;
  onClose(): void;
  label?: string;
  /** Argument values the rows give beyond their entity. */
  given?: Record<string, unknown>;
}

export interface CommandEntry {
  cmd: Command;
  /** true, or why it cannot run now. */
  reason: true | string;
}

/** The listed commands that are offered in ctx, each with whether it can run. */
export function commandEntries(
  ids: readonly string[],
  ctx: CommandContext,
  find: (id: string) => Command | undefined,
): CommandEntry[] {
  return ids
    .map((id) => find(id))
    .filter((cmd): cmd is Command => cmd !== undefined && isVisible(cmd, ctx))
    .map((cmd) => ({ cmd, reason: availability(cmd, ctx) }));
}

export function ContextMenu({
  at,
  commandIds,
  selection,
  onClose,
  label = 'Actions',
  given = {},
}: ContextMenuProps) {
  const runtime = useCommandRuntime();
  const store = useStore();
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (at) openMenu(button.current);
  }, [at]);

  if (!at) return null;
  const base = runtime.context('menu');
  const ctx = selection ? { ...base, selection } : base;
  const items = commandEntries(commandIds, ctx, (id) => runtime.registry.get(id));

  const choose = (cmd: Command) => runOrPrompt(runtime, cmd, given, 'menu', { selection, store });

  return (
    <Menu>
      {({ open }) => (
        <>
          <CloseWatcher open={open} onClose={onClose} />
          <MenuButton
            ref={button}
            className="ui-menu-anchor"
            style={{ left: at.x, top: at.y }}
            aria-label={label}
            tabIndex={-1}
          />
          <MenuItems anchor="bottom start" className="ui-menu" aria-label={label}>
            {items.length === 0 && <div className="ui-menu-empty">No actions here</div>}
            {items.map((entry) => (
              <CommandMenuItem key={entry.cmd.id} entry={entry} onChoose={choose} />
            ))}
          </MenuItems>
        </>
      )}
    </Menu>
  );
}

/** One command in a menu: its title and key, and why it cannot run when it cannot (then inert). */
export function CommandMenuItem({ entry, onChoose }: { entry: CommandEntry; onChoose(cmd: Command): void }) {
  const { cmd, reason } = entry;
  return (
    <MenuItem disabled={reason !== true}>
      <button
        type="button"
        className="ui-menu-item"
        onClick={reason === true ? () => onChoose(cmd) : undefined}
      >
        <span className="ui-menu-title">{cmd.title}</span>
        {cmd.keys?.[0] && <kbd className="ui-key">{keyLabels(cmd.keys[0]).join(' ')}</kbd>}
        {reason !== true && <span className="ui-menu-reason">{reason}</span>}
      </button>
    </MenuItem>
  );
}

/** Tells the owner when the menu closes (choice, Esc, click outside), so it can take focus back. */
function CloseWatcher({ open, onClose }: { open: boolean; onClose(): void }) {
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) onClose();
    wasOpen.current = open;
  }, [open, onClose]);
  return null;
}
