// Light or dark from the `theme` preference; 'system' follows the operating system live.

import { prefAtoms } from '../store/prefs.ts';
import type { AppStore } from './state.ts';

export function applyTheme(store: AppStore): () => void {
  const media = window.matchMedia?.('(prefers-color-scheme: dark)');
  const apply = () => {
    const pref = store.get(prefAtoms.theme);
    const dark = pref === 'dark' || (pref === 'system' && media?.matches);
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  };
  apply();
  const off = store.sub(prefAtoms.theme, apply);
  media?.addEventListener('change', apply);
  return () => {
    off();
    media?.removeEventListener('change', apply);
  };
}
