// Entity search over the store's index, shared by the palette's result list and its argument
// completion. One search per index version (and kind set) is kept and reused: making its strings
// for 100k entities costs more than a keystroke may, so they are made lazily or in the background.

import type { EntityKind, EntityLookup, EntityRef } from '../../../commands/args.ts';
import type { EntityIndex } from '../store/entityIndex.ts';
import { FuzzyIndex, warmUp } from './fuzzy.ts';

export interface EntitySearch {
  readonly refs: readonly EntityRef[];
  readonly fuzzy: FuzzyIndex;
  search(query: string, cap: number): EntityRef[];
}

const cache = new WeakMap<EntityIndex, { version: number; byKinds: Map<string, EntitySearch> }>();

/** A query that matches almost nothing, used only to compile uFuzzy's paths ahead of typing. */
const WARM_QUERY = 'qzx';

/** What the palette searches: the name, its detail and the kind (so `rex dino` finds dinos). */
export function haystackOf(ref: EntityRef): string {
  return ref.detail ? `${ref.label} ${ref.detail} ${ref.kind}` : `${ref.label} ${ref.kind}`;
}

function entryFor(index: EntityIndex) {
  let entry = cache.get(index);
  if (!entry || entry.version !== index.version) {
    entry = { version: index.version, byKinds: new Map() };
    cache.set(index, entry);
  }
  return entry;
}

function cached(index: EntityIndex, key: string): EntitySearch | undefined {
  return entryFor(index).byKinds.get(key);
}

function store(index: EntityIndex, key: string, search: EntitySearch): EntitySearch {
  entryFor(index).byKinds.set(key, search);
  return search;
}

/** The memoised search over all entities, or over those of `kinds`. */
export function entitySearch(index: EntityIndex, kinds?: readonly EntityKind[]): EntitySearch {
  const key = kinds && kinds.length > 0 ? [...kinds].sort().join(',') : '*';
  const found = cached(index, key);
  if (found) return found;
  const refs = key === '*' ? index.all() : kinds!.flatMap((k) => index.ofKind(k));
  // Its strings are made as scans reach them or as preparation goes: a keystroke right after
  // opening does not wait for 100k of them when it needs a few thousand.
  const fuzzy = new FuzzyIndex({ size: refs.length, textOf: (i) => haystackOf(refs[i]) });
  return store(index, key, {
    refs,
    fuzzy,
    search: (query, cap) => fuzzy.search(query, cap).map((i) => refs[i]),
  });
}

/**
 * Makes the search over all entities ready and compiles its filter in small steps (run them in
 * the background), so the keystrokes after opening find both ready.
 */
export function* prepareEntitySearch(index: EntityIndex): Generator<void> {
  yield* warmUp(entitySearch(index).fuzzy, WARM_QUERY);
}

/** The store lookup with the palette's own filter for completion; exact resolving stays the app's. */
export function paletteLookup(index: EntityIndex, app: EntityLookup): EntityLookup {
  return {
    search: (kinds, query, limit) => entitySearch(index, kinds).search(query, limit),
    resolve: (kinds, text) => app.resolve(kinds, text),
  };
}
