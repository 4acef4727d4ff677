// Headless UI menus and popovers open only from their button. Lists open theirs from a key
// (Shift+F10, the columns command), so they send the button the key a keyboard user would press:
// it opens with its first item focused, exactly as if the button had been used.

/** Frames to keep trying: on the frame a menu mounts, Headless UI may not have wired its button yet. */
const TRIES = 5;

export function openMenu(button: HTMLElement | null, tries = TRIES): void {
  if (!button?.isConnected || button.getAttribute('aria-expanded') === 'true') return;
  button.focus({ preventScroll: true });
  button.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  if (tries > 1) requestAnimationFrame(() => openMenu(button, tries - 1));
}
