// The global scope's key dispatcher: one listener that looks each key press up in the registry.
// List-scope keys are dispatched by each VirtualList, which stops the ones it handles.

import { useStore } from 'jotai';
import { useEffect } from 'react';
import { normaliseKey } from '../../../commands/registry.ts';
import { prefAtoms } from '../store/prefs.ts';
import { isTextField, keyNames, worksInFields } from '../ui/keyNames.ts';
import { runOrPrompt } from '../ui/runCommand.ts';
import type { CommandRuntime } from './runtime.ts';

/** How long the first key of a sequence (`g` of `g s`) waits for the second. */
const SEQUENCE_MS = 1500;

export function GlobalHotkeys({ rt }: { rt: CommandRuntime }) {
  const store = useStore();
  useEffect(() => {
    let pending: { names: string[]; until: number } | null = null;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const typing = isTextField(e.target);
      const names = keyNames(e);
      const started = pending && pending.until > Date.now() ? pending.names : null;
      pending = null;
      const candidates = started ? started.flatMap((p) => names.map((n) => `${p}>${n}`)) : names;
      const promptKey = store.get(prefAtoms.promptShortcutKey);
      const cmd =
        rt.registry.binding('global', candidates)?.command ??
        (promptKey && !started && names.includes(normaliseKey(promptKey))
          ? rt.registry.get('ui.console.focus')
          : undefined);
      // In a text field a key is the field's, unless the command says otherwise (Ctrl+Z undoes
      // the field's text, not a command) or it has a modifier or is a function key.
      if (cmd && typing && !(cmd.keysInFields ?? worksInFields(e))) return;
      if (cmd) runOrPrompt(rt, cmd, {}, 'hotkey', { store });
      else if (!typing && !started && rt.registry.startsSequence('global', names))
        pending = { names, until: Date.now() + SEQUENCE_MS };
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [rt, store]);
  return null;
}
