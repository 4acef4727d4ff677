// The list the registry's `ui.list.*` commands act on: the one that last had focus. It stays
// active while the palette or the console pane has focus, so "filter this list" still works
// from there; it is released when the list unmounts.

import type { ListController } from '../../../commands/context.ts';

let active: ListController | null = null;

export function setActiveList(ctrl: ListController | null): void {
  active = ctrl;
}

export function getActiveList(): ListController | null {
  return active;
}

/** Clears the active list only if it is still `ctrl` (another list may have taken over). */
export function releaseActiveList(ctrl: ListController): void {
  if (active === ctrl) active = null;
}
