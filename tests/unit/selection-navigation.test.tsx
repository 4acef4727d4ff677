// A pane that navigates leaves its rows behind: a command run on the next page must not act on
// the selection of the last (a ban on the list's server instead of the one in view).

import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { selectionOf } from '../../src/domain/resolver.ts';
import { initialLayout, navigate, split } from '../../src/web/app/layout.ts';
import { layoutAtom, selectionAtom } from '../../src/web/app/state.ts';

describe('pane selection', () => {
  it('is dropped for the pane that moves on and kept for the others', () => {
    const store = createStore();
    const two = split(initialLayout('/servers'), 'right');
    store.set(layoutAtom, two);
    const [left, right] = [two.root, two.root].map((n, i) => (n.type === 'split' ? n.children[i] : n));
    const picked = selectionOf([{ kind: 'server', id: 's1', label: 'Island' }]);
    store.set(selectionAtom, { [left.id]: picked, [right.id]: picked });

    // Focus moving between panes changes no route: both keep their rows.
    store.set(layoutAtom, { ...store.get(layoutAtom), active: left.id });
    expect(Object.keys(store.get(selectionAtom)).sort()).toEqual([left.id, right.id].sort());

    store.set(layoutAtom, navigate(store.get(layoutAtom), left.id, '/servers/s2/bans'));
    expect(store.get(selectionAtom)).toEqual({ [right.id]: picked });
  });
});
