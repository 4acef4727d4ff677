// Moving keyboard focus into the active pane after the shell changed around it (split, next pane,
// console hidden), so focus is never left on nothing or trapped in something hidden.

import type { AppStore } from './state.ts';
import { layoutAtom } from './state.ts';

export function focusActivePane(store: AppStore): void {
  requestAnimationFrame(() => {
    const pane = document.querySelector<HTMLElement>(`[data-pane="${store.get(layoutAtom).active}"]`);
    // The list first: a filter box comes before its grid in the document but is not where work starts.
    const target =
      pane?.querySelector<HTMLElement>('[role="grid"]') ??
      pane?.querySelector<HTMLElement>('input, textarea, button, a[href]') ??
      pane;
    target?.focus();
  });
}
