// Whether the palette is open and what it was opened with. The shell's `ui.palette` command
// (Ctrl/Cmd+K) calls openPalette; <Palette /> renders from this atom.

import { atom, type createStore } from 'jotai';

export interface PaletteState {
  open: boolean;
  query: string;
  /** A command handed over by a menu or hotkey, with the values it already has: the prompt starts there. */
  pending?: { commandId: string; values: Record<string, unknown> };
}

export type PaletteStore = ReturnType<typeof createStore>;

export const paletteAtom = atom<PaletteState>({ open: false, query: '' });

export function openPalette(store: PaletteStore, query = ''): void {
  store.set(paletteAtom, { open: true, query });
}

export function openPaletteAt(store: PaletteStore, commandId: string, values: Record<string, unknown>): void {
  store.set(paletteAtom, { open: true, query: '', pending: { commandId, values } });
}

export function closePalette(store: PaletteStore): void {
  store.set(paletteAtom, { open: false, query: '' });
}
