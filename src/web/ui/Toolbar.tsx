// A row of buttons, one per command id: the command's title and key, and when it cannot run,
// the reason (as a tooltip, with the button still focusable so keyboard users can read it).

import { useStore } from 'jotai';
import type { Selection } from '../../../commands/context.ts';
import { useCommandRuntime } from '../app/runtime.ts';
import { keyLabels } from '../palette/keyLabels.ts';
import { commandEntries } from './ContextMenu.tsx';
import { runOrPrompt } from './runCommand.ts';
import { Tooltip } from './Tooltip.tsx';

export interface ToolbarProps {
  /** A list of app/menus.ts. */
  commandIds: readonly string[];
  label: string;
  /** The rows or entity the toolbar acts on, when not the pane's selection; arguments come from it. */
  selection?: Selection;
}

export function Toolbar({ commandIds, label, selection }: ToolbarProps) {
  const runtime = useCommandRuntime();
  const store = useStore();
  const base = runtime.context('toolbar');
  const ctx = selection ? { ...base, selection } : base;
  const items = commandEntries(commandIds, ctx, (id) => runtime.registry.get(id));
  return (
    <div role="toolbar" aria-label={label} className="ui-toolbar">
      {items.map(({ cmd, reason }) => (
        <Tooltip key={cmd.id} text={reason === true ? cmd.description : reason}>
          <button
            type="button"
            className="ui-button"
            aria-disabled={reason !== true || undefined}
            onClick={() => {
              if (reason === true) runOrPrompt(runtime, cmd, {}, 'toolbar', { selection, store });
            }}
          >
            {cmd.title}
            {cmd.keys?.[0] && <kbd className="ui-key">{keyLabels(cmd.keys[0]).join(' ')}</kbd>}
          </button>
        </Tooltip>
      ))}
    </div>
  );
}
