// Binds every global-scope key of the registry. List-scope keys are handled by VirtualList itself.

import { useAtomValue, useStore } from 'jotai';
import { useHotkeys } from 'react-hotkeys-hook';
import type { Command } from '../../../commands/registry.ts';
import { prefAtoms } from '../store/prefs.ts';
import { runOrPrompt } from '../ui/runCommand.ts';
import type { CommandRuntime } from './runtime.ts';

/** Keys with a modifier or a function key work while typing; plain printable ones do not. */
const worksInFields = (key: string) => /(^|\+)(mod|ctrl|alt|meta)\+|^(shift\+)?f\d+$/i.test(key);

function Binding({ rt, cmd, hotkey }: { rt: CommandRuntime; cmd: Command; hotkey: string }) {
  const inFields = cmd.keysInFields ?? worksInFields(hotkey);
  // A lone character (`:`, `?`, `` ` ``) is matched as typed, whatever Shift it took on this layout.
  const character = hotkey.length === 1;
  const store = useStore();
  useHotkeys(hotkey, () => runOrPrompt(rt, cmd, {}, 'hotkey', { store }), {
    preventDefault: true,
    enableOnFormTags: inFields,
    enableOnContentEditable: inFields,
    useKey: character,
    ignoreModifiers: character,
    // …but only Shift: Ctrl+` is its own binding, not ` again.
    ignoreEventWhen: character ? (e) => e.ctrlKey || e.altKey || e.metaKey : undefined,
  });
  return null;
}

export function GlobalHotkeys({ rt }: { rt: CommandRuntime }) {
  const promptKey = useAtomValue(prefAtoms.promptShortcutKey);
  const global = rt.registry.all().filter((c) => (c.scope ?? 'global') === 'global' && c.keys?.length);
  const focusPrompt = rt.registry.get('ui.console.focus');
  return (
    <>
      {global.flatMap((c) => c.keys!.map((k) => <Binding key={`${c.id}:${k}`} rt={rt} cmd={c} hotkey={k} />))}
      {focusPrompt && promptKey && (
        <Binding key={`prompt:${promptKey}`} rt={rt} cmd={focusPrompt} hotkey={promptKey} />
      )}
    </>
  );
}
