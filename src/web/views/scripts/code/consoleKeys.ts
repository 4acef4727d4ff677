// The console's chords that act in text fields (Ctrl+K, F6, Alt+←, Ctrl+Shift+\ …; see
// Hotkeys.tsx) act in the code editor too: the editor's binding for the same key stands aside and
// the key press goes on, not prevented, to the console's dispatcher. Plain keys stay the editor's
// text, and a chord the console leaves to fields (Ctrl+Z) stays the editor's.

import { type Extension, Prec } from '@codemirror/state';
import { type Command, EditorView, type KeyBinding } from '@codemirror/view';
import type { Registry } from '../../../../../commands/registry.ts';
import { keyNames, worksInFields } from '../../../ui/keyNames.ts';

export function yieldToConsole() {
  // Decided by the first keydown handler for each key press, read by the bindings that follow.
  let consoles = false;
  const standAside = (run: Command | undefined): Command | undefined =>
    run && ((view) => !consoles && run(view));
  return {
    /** Watches each key press against the console's global keys. */
    watch: (registry: Registry | undefined): Extension =>
      registry
        ? Prec.highest(
            EditorView.domEventHandlers({
              keydown: (e) => {
                const command = registry.binding('global', keyNames(e))?.command;
                consoles = !!command && (command.keysInFields ?? worksInFields(e));
                return false;
              },
            }),
          )
        : [],
    /** The editor's bindings, each standing aside for a console chord. */
    guard: (bindings: readonly KeyBinding[]): KeyBinding[] =>
      bindings.map((b) => ({ ...b, run: standAside(b.run), shift: standAside(b.shift) })),
  };
}
