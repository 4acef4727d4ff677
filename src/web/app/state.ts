// Shell state as jotai atoms in one store, so commands (outside React) and views share it.

import { atom, type createStore } from 'jotai';
import type { BlueprintKind, EntityRef } from '../../../commands/args.ts';
import type { Choice, Selection } from '../../../commands/context.ts';
import { TOAST_ERROR_MS, TOAST_SUCCESS_MS } from '../../domain/constants.ts';
import { currentPath, findPane, initialLayout, isLayout, type Layout, navigate, panes } from './layout.ts';
import { canonicalPath, isPublicPath } from './routes.ts';

export type AppStore = ReturnType<typeof createStore>;

const LAYOUT_KEY = 'palisade.layout';

/** The saved layout, with the active pane on the address the page was opened at (a deep link or reload). */
function loadLayout(): Layout {
  const url = typeof window === 'undefined' ? '/' : canonicalPath(window.location.pathname);
  const start = isPublicPath(url) ? '/servers' : url;
  try {
    const saved = JSON.parse(localStorage.getItem(LAYOUT_KEY) ?? 'null');
    if (isLayout(saved)) return isPublicPath(url) ? saved : navigate(saved, saved.active, start);
  } catch {
    // A damaged saved layout is replaced by a fresh one.
  }
  return initialLayout(start);
}

export const selectionAtom = atom<Record<string, Selection>>({});

const layoutBase = atom<Layout>(loadLayout());
export const layoutAtom = atom(
  (get) => get(layoutBase),
  (get, set, next: Layout) => {
    const before = get(layoutBase);
    set(layoutBase, next);
    localStorage.setItem(LAYOUT_KEY, JSON.stringify(next));
    // A pane that moved on leaves its rows behind: commands must not act on the last page's
    // selection (ban on the server of the list instead of the one in view).
    const moved = panes(next.root).filter((p) => {
      const old = findPane(before, p.id);
      return !old || currentPath(old) !== currentPath(p);
    });
    if (moved.length)
      set(selectionAtom, (all) =>
        Object.fromEntries(Object.entries(all).filter(([id]) => !moved.some((p) => p.id === id))),
      );
  },
);

export const terminalAtom = atom({ open: false, focusSignal: 0 });

export interface ToastAction {
  label: string;
  run(): void;
}

export interface Toast {
  id: number;
  kind: 'success' | 'error' | 'info';
  summary: string;
  reason?: string;
  /** A button on the toast (Undo). */
  action?: ToastAction;
}
export const toastsAtom = atom<Toast[]>([]);

let toastId = 0;
export function pushToast(
  store: AppStore,
  kind: Toast['kind'],
  summary: string,
  reason?: string,
  action?: ToastAction,
): void {
  const id = ++toastId;
  store.set(toastsAtom, (list) => [...list.slice(-4), { id, kind, summary, reason, action }]);
  setTimeout(
    () => store.set(toastsAtom, (list) => list.filter((t) => t.id !== id)),
    kind === 'error' ? TOAST_ERROR_MS : TOAST_SUCCESS_MS,
  );
}

/** The last command run from any surface that can be undone, and how (kbar's perform → undo). */
export const undoAtom = atom<{ title: string; undo: () => Promise<void> } | null>(null);

export type DialogState =
  | { type: 'info'; title: string; rows: [string, string][] }
  | { type: 'confirm'; message: string; resolve: (ok: boolean) => void }
  | { type: 'shortcuts' }
  | { type: 'form'; commandId: string; known: Record<string, unknown> }
  | { type: 'choose'; choice: Choice; resolve: (ref: EntityRef | null) => void }
  | {
      type: 'blueprint';
      kind: BlueprintKind;
      text?: string;
      packs?: readonly string[];
      resolve: (path: string | null) => void;
    }
  | { type: 'mods'; selected: readonly string[]; resolve: (packs: string[] | null) => void }
  | null;
export const dialogAtom = atom<DialogState>(null);
