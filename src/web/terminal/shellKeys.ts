// Which key presses xterm must leave to the shell. xterm stops the propagation of every key it
// handles, so without this the global hotkeys (palette, panes, F6, Esc) would die inside the pane.
// The console keeps the chords its line editor uses (Ctrl+A/E/U/W/C/L/R/G, Alt+B/F, …), but not
// Ctrl+K: the palette opens with it anywhere (DESIGN.md), so kill-to-end is Ctrl+K's loss here.

export type KeyPress = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'altKey' | 'metaKey' | 'shiftKey'>;

const CONSOLE_CHORDS = new Set([
  'ctrl+a',
  'ctrl+e',
  'ctrl+u',
  'ctrl+w',
  'ctrl+c',
  'ctrl+l',
  'ctrl+r',
  'ctrl+g',
  'ctrl+h',
  'ctrl+arrowleft',
  'ctrl+arrowright',
  'ctrl+backspace',
  'ctrl+delete',
  'alt+b',
  'alt+f',
  'alt+backspace',
  'alt+arrowleft',
  'alt+arrowright',
]);

/** `ctrl+k`, `alt+b`: letters by physical key, so layouts and macOS Option characters agree. */
function chord(e: KeyPress): string {
  const key = /^Key([A-Z])$/.exec(e.code)?.[1].toLowerCase() ?? e.key.toLowerCase();
  const mods = [e.ctrlKey && 'ctrl', e.altKey && 'alt', e.metaKey && 'meta', e.shiftKey && 'shift'];
  return [...mods.filter(Boolean), key].join('+');
}

export interface PaneState {
  /** Ctrl+R search is open: Esc ends it instead of reaching the shell. */
  searching: boolean;
  /** Text is selected: Ctrl+C copies it (the browser's default) instead of interrupting. */
  hasSelection: boolean;
}

/** true when the shell should get the key and xterm should ignore it. */
export function isShellKey(e: KeyPress, pane: PaneState): boolean {
  if (/^F\d+$/.test(e.key)) return true;
  if (e.key === 'Escape') return !pane.searching;
  if (e.metaKey) return true;
  if (!e.ctrlKey && !e.altKey) return false;
  const c = chord(e);
  if (c === 'ctrl+c') return pane.hasSelection;
  return !CONSOLE_CHORDS.has(c);
}
