// Entity search over the store's index, shared by the palette's result list and its argument
// completion. One haystack per index version (and kind set) is built and reused: building it
// for 100k entities costs more than a keystroke may.

import type { EntityKind, EntityLookup, EntityRef } from '../../../commands/args.ts';
import type { EntityIndex } from '../store/entityIndex.ts';
import { FuzzyIndex } from './fuzzy.ts';

export interface EntitySearch {
  readonly refs: readonly EntityRef[];
  search(query: string, cap: number): EntityRef[];
}

const cache = new WeakMap<EntityIndex, { version: number; byKinds: Map<string, EntitySearch> }>();

/** What the palette searches: the name, its detail and the kind (so `rex dino` finds dinos). */
export function haystackOf(ref: EntityRef): string {
  return ref.detail ? `${ref.label} ${ref.detail} ${ref.kind}` : `${ref.label} ${ref.kind}`;
}

/** The memoised search over all entities, or over those of `kinds`. */
export function entitySearch(index: EntityIndex, kinds?: readonly EntityKind[]): EntitySearch {
  let entry = cache.get(index);
  if (!entry || entry.version !== index.version) {
    entry = { version: index.version, byKinds: new Map() };
    cache.set(index, entry);
  }
  const key = kinds && kinds.length > 0 ? [...kinds].sort().join(',') : '*';
  let found = entry.byKinds.get(key);
  if (!found) {
    const refs = key === '*' ? index.all() : kinds!.flatMap((k) => index.ofKind(k));
    found = build(refs);
    entry.byKinds.set(key, found);
  }
  return found;
}

function build(refs: readonly EntityRef[]): EntitySearch {
  const fuzzy = new FuzzyIndex(refs.map(haystackOf));
  return {
    refs,
    search: (query, cap) => fuzzy.search(query, cap).map((i) => refs[i]),
  };
}

/** The store lookup with the palette's own filter for completion; exact resolving stays the app's. */
export function paletteLookup(index: EntityIndex, app: EntityLookup): EntityLookup {
  return {
    search: (kinds, query, limit) => entitySearch(index, kinds).search(query, limit),
    resolve: (kinds, text) => app.resolve(kinds, text),
  };
}
