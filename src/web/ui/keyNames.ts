// The registry's names for a key press (`shift+f10`, `mod+k`, `?`), most specific first, so one
// lookup serves every scope's dispatcher: the shell's global keys and each list's keys.

import { normaliseKey } from '../../../commands/registry.ts';
import { isApple } from '../palette/keyLabels.ts';
import type { KeyPress } from '../terminal/shellKeys.ts';

/** `KeyK` → `k`, `Digit1` → `1`, `Backslash` → `backslash`: the physical key, whatever the layout types. */
function codeName(code: string): string {
  return (/^(?:Key|Digit)(.)$/.exec(code)?.[1] ?? code).toLowerCase();
}

export function keyNames(e: KeyPress, apple = isApple()): string[] {
  // The platform's command key is `mod` and also itself (`ctrl+backquote` is Ctrl on every platform).
  const platform = apple ? e.metaKey : e.ctrlKey;
  const spellings = platform ? [apple ? 'meta' : 'ctrl', 'mod'] : [null];
  const names = spellings.flatMap((mod) => {
    const mods = (shift: boolean) =>
      [
        mod,
        !apple && e.metaKey && 'meta',
        apple && e.ctrlKey && 'ctrl',
        e.altKey && 'alt',
        shift && e.shiftKey && 'shift',
      ].filter((m): m is string => !!m);
    const name = (key: string, shift: boolean) => normaliseKey([...mods(shift), key].join('+'));
    const key = e.key === ' ' ? 'space' : e.key.toLowerCase();
    // A plain key is what it types on this layout (`j`); a chord is the physical key, so
    // layouts and macOS Option characters agree (`mod+k`, `alt+w`).
    const chord = e.ctrlKey || e.altKey || e.metaKey;
    const [first, second] = chord ? [codeName(e.code), key] : [key, codeName(e.code)];
    // A character (`?`, `:`) is also matched as typed, whatever Shift it took on this layout.
    return [name(first, true), name(second, true), ...(e.key.length === 1 ? [name(key, false)] : [])];
  });
  return [...new Set(names.filter((n) => n !== '' && !n.endsWith('+')))];
}

/** Keys with a modifier or a function key work while typing; plain printable ones do not. */
export function worksInFields(e: KeyPress): boolean {
  return e.ctrlKey || e.altKey || e.metaKey || /^F\d+$/.test(e.key);
}

/** Whether the key press lands where text is typed. */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}
