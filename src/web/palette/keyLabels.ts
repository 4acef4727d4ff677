// How a command's key strings are shown beside it: `mod+shift+k` → Ctrl+Shift+K
// (⌘ on Apple platforms), `g>s` → G then S.

const NAMES: Record<string, string> = {
  shift: 'Shift',
  alt: 'Alt',
  ctrl: 'Ctrl',
  meta: 'Meta',
  escape: 'Esc',
  enter: 'Enter',
  space: 'Space',
  backquote: '`',
  slash: '/',
  up: '↑',
  down: '↓',
  left: '←',
  right: '→',
  arrowup: '↑',
  arrowdown: '↓',
  arrowleft: '←',
  arrowright: '→',
  pageup: 'PgUp',
  pagedown: 'PgDn',
  backslash: '\\',
  contextmenu: 'Menu',
};

export function isApple(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
}

/** One label per chord of a key string. */
export function keyLabels(key: string, apple = isApple()): string[] {
  return key.split('>').map((chord) =>
    chord
      .split('+')
      .map((part) => {
        const p = part.trim().toLowerCase();
        if (p === 'mod') return apple ? '⌘' : 'Ctrl';
        return NAMES[p] ?? (p.length === 1 ? p.toUpperCase() : p[0].toUpperCase() + p.slice(1));
      })
      .join('+'),
  );
}
