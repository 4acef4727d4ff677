// Keyboard focus in the panes: after a navigation on the new view's main list (DESIGN "Keyboard
// conventions"), and after the shell changed around a pane (split, next pane, console hidden), so
// focus is never left on nothing or trapped in something hidden.

import type { AppStore } from './state.ts';
import { layoutAtom } from './state.ts';

/**
 * Where work starts in a view: the element it marks with data-autofocus (an editor whose lists
 * come after its first field), else its main list, else a form's first field.
 */
function mainElement(root: ParentNode): HTMLElement | null {
  return (
    root.querySelector<HTMLElement>('[data-autofocus]') ??
    root.querySelector<HTMLElement>('[role="grid"]') ??
    root.querySelector<HTMLElement>('form :is(input, select, textarea, button, [role="checkbox"])')
  );
}

/** The element if it is shown now (not in a hidden view kept mounted while the next loads). */
const shown = (el: HTMLElement | null) => (el && el.checkVisibility?.() !== false ? el : null);

export function focusActivePane(store: AppStore): void {
  const before = document.activeElement;
  requestAnimationFrame(() => {
    // Focus the user moved meanwhile (Ctrl+K right after hiding the console) stays where it went.
    const now = document.activeElement;
    if (now !== before && now !== document.body && now !== null) return;
    const pane = document.querySelector<HTMLElement>(`[data-pane="${store.get(layoutAtom).active}"]`);
    if (!pane) return;
    const main = shown(mainElement(pane));
    if (main) return main.focus();
    // The view is still loading (a command typed in the console navigated, then the console was
    // hidden): the pane holds focus, out of the hidden console, until its list is shown.
    (shown(pane.querySelector<HTMLElement>('input, textarea, button, a[href]')) ?? pane).focus();
    focusMainWhenReady(pane);
  });
}

/** How long a view may take to show its list (a chunk and a first page) before focus stops waiting. */
const WAIT_MS = 10_000;

/**
 * Whether the user has moved on since navigating: focus is now somewhere they put it (the palette,
 * a dialog, a field of the view they tabbed to), not where the navigation left it. Focus on
 * nothing, on the element focused at navigation, or on a hidden one (the last view, kept mounted
 * while the next loads) is not a move; nor is the palette handing focus back as it closes after
 * running the command that navigated.
 */
function movedOn(before: Element | null): boolean {
  const now = document.activeElement;
  if (!(now instanceof HTMLElement) || now === document.body || now === before) return false;
  if (now.checkVisibility?.() === false) return false;
  const inDialog = now.closest('[role="dialog"], dialog') !== null;
  if (before !== null && !before.isConnected && !inDialog) return false;
  return true;
}

/**
 * Focuses the view's main element once it is there (views load their chunk and data first).
 * Returns a cancel function. Anything the user did since gives way (movedOn, a click), so typing
 * meant for the palette never lands in the list; a command typed in the console leaves focus
 * there.
 */
export function focusMainWhenReady(pane: HTMLElement): () => void {
  const before = document.activeElement;
  const inConsole = () => document.activeElement?.closest('.terminal-dock') != null;
  const attempt = (): boolean => {
    if (inConsole() || movedOn(before)) return true;
    // A view still loading keeps the last one mounted but hidden (Suspense), its list perhaps
    // still the active element: only a shown one counts.
    const target = shown(mainElement(pane));
    if (!target) return false;
    target.focus();
    return document.activeElement === target;
  };
  if (attempt()) return () => {};
  const observer = new MutationObserver(() => {
    if (attempt()) stop();
  });
  const timer = setTimeout(() => stop(), WAIT_MS);
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
    document.removeEventListener('pointerdown', stop, true);
  };
  observer.observe(pane, { childList: true, subtree: true });
  document.addEventListener('pointerdown', stop, true);
  return stop;
}
