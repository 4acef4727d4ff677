// Local preferences (SPEC §3) with the defaults of SPEC §9. One localStorage key per preference
// under `palisade.pref.`, so a corrupt or outdated value resets that preference only. Components
// read the atoms; commands (`prefs.set`) use getPref/setPref, which accept the console's strings.

import { atom, getDefaultStore, type WritableAtom } from 'jotai';
import { atomWithStorage, createJSONStorage, RESET } from 'jotai/utils';
import type { SyncStorage } from 'jotai/vanilla/utils/atomWithStorage';
import { THEMES } from '../../domain/enums.ts';
import { PREF_KEYS, type PrefKey } from '../../domain/prefKeys.ts';

type Store = ReturnType<typeof getDefaultStore>;

export const PREF_PREFIX = 'palisade.pref.';

export const LOG_COLUMN_IDS = ['message', 'time', 'event', 'type', 'level', 'server'] as const;
export type LogColumnId = (typeof LOG_COLUMN_IDS)[number];
export const LOCATOR_FORMATS = ['SetPlayerPos', 'CopyCoordsToClipboard', 'GPS'] as const;
export const DENSITIES = ['compact', 'comfortable'] as const;
export const LOCALES = ['en'] as const;

/** How one preference is read from input (typed, or a console string) and described in errors. */
interface PrefSpec<V> {
  /** The value, or undefined when the input is not acceptable. */
  parse(input: unknown): V | undefined;
  expected: string;
}

const TRUE = new Set(['true', 'yes', 'on', '1', 'y']);
const FALSE = new Set(['false', 'no', 'off', '0', 'n']);

const bool: PrefSpec<boolean> = {
  parse: (v) => {
    if (typeof v === 'boolean') return v;
    if (typeof v !== 'string') return undefined;
    const t = v.trim().toLowerCase();
    return TRUE.has(t) ? true : FALSE.has(t) ? false : undefined;
  },
  expected: 'yes or no',
};

function oneOf<const V extends readonly string[]>(values: V): PrefSpec<V[number]> {
  return {
    parse: (v) =>
      typeof v === 'string' ? values.find((x) => x.toLowerCase() === v.trim().toLowerCase()) : undefined,
    expected: `one of ${values.join(', ')}`,
  };
}

function text(check: (s: string) => boolean = () => true, expected = 'text'): PrefSpec<string> {
  return { parse: (v) => (typeof v === 'string' && check(v) ? v : undefined), expected };
}

const nullableText: PrefSpec<string | null> = {
  parse: (v) => (v === null || v === '' ? null : typeof v === 'string' ? v : undefined),
  expected: 'text, or empty to clear',
};

function subsetOf<const V extends readonly string[]>(values: V): PrefSpec<V[number][]> {
  return {
    parse: (v) => {
      const items = typeof v === 'string' ? v.split(',').map((s) => s.trim()) : v;
      if (!Array.isArray(items) || items.length === 0) return undefined;
      const out: V[number][] = [];
      for (const item of items) {
        const hit = values.find((x) => typeof item === 'string' && x.toLowerCase() === item.toLowerCase());
        if (!hit) return undefined;
        if (!out.includes(hit)) out.push(hit);
      }
      return out;
    },
    expected: `a comma-separated list of ${values.join(', ')}`,
  };
}

const textRecord: PrefSpec<Record<string, string>> = {
  parse: (v) =>
    v !== null &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    Object.values(v).every((x) => typeof x === 'string')
      ? (v as Record<string, string>)
      : undefined,
  expected: 'a text per server (set from the chat view)',
};

const SPECS = {
  locale: oneOf(LOCALES),
  chatName: text(),
  playChatSounds: bool,
  showTranslatedChat: bool,
  storedChatMessage: textRecord,
  logColumns: subsetOf(LOG_COLUMN_IDS),
  promptShortcutKey: text((s) => [...s].length === 1 && s.trim() !== '', 'a single character'),
  locatorResultsFormat: oneOf(LOCATOR_FORMATS),
  attachNoticeVisible: bool,
  affiliateId: nullableText,
  theme: oneOf(THEMES),
  density: oneOf(DENSITIES),
} satisfies Record<PrefKey, PrefSpec<unknown>>;

type Specs = typeof SPECS;

export type { PrefKey };
export type PrefValues = { [K in PrefKey]: Specs[K] extends PrefSpec<infer V> ? V : never };

export const PREF_DEFAULTS: Readonly<PrefValues> = Object.freeze({
  locale: 'en',
  chatName: '',
  playChatSounds: true,
  showTranslatedChat: true,
  storedChatMessage: {},
  // SPEC §9: the logs show type and level by default, with the other columns of SPEC §2.
  logColumns: [...LOG_COLUMN_IDS],
  promptShortcutKey: '1',
  locatorResultsFormat: 'SetPlayerPos',
  attachNoticeVisible: true,
  affiliateId: null,
  theme: 'system',
  density: 'compact',
});

/** A stored value is kept only if it parses back to itself; anything else reads as the default. */
function storageFor<V>(spec: PrefSpec<V>): SyncStorage<V> {
  const json = createJSONStorage<unknown>(() => globalThis.localStorage);
  const valid = (v: unknown, initial: V): V => {
    const parsed = spec.parse(v);
    return parsed !== undefined && JSON.stringify(parsed) === JSON.stringify(v) ? parsed : initial;
  };
  return {
    getItem: (key, initial) => valid(json.getItem(key, initial), initial),
    setItem: (key, value) => json.setItem(key, value),
    removeItem: (key) => json.removeItem(key),
    subscribe: (key, callback, initial) => json.subscribe?.(key, (v) => callback(valid(v, initial)), initial),
  };
}

type PrefUpdate<V> = V | typeof RESET | ((prev: V) => V | typeof RESET);
type PrefAtom<V> = WritableAtom<V, [PrefUpdate<V>], void>;

function prefAtom<K extends PrefKey>(key: K): PrefAtom<PrefValues[K]> {
  const spec = SPECS[key] as unknown as PrefSpec<PrefValues[K]>;
  return atomWithStorage(PREF_PREFIX + key, PREF_DEFAULTS[key], storageFor(spec), { getOnInit: true });
}

export const prefAtoms: { readonly [K in PrefKey]: PrefAtom<PrefValues[K]> } = {
  locale: prefAtom('locale'),
  chatName: prefAtom('chatName'),
  playChatSounds: prefAtom('playChatSounds'),
  showTranslatedChat: prefAtom('showTranslatedChat'),
  storedChatMessage: prefAtom('storedChatMessage'),
  logColumns: prefAtom('logColumns'),
  promptShortcutKey: prefAtom('promptShortcutKey'),
  locatorResultsFormat: prefAtom('locatorResultsFormat'),
  attachNoticeVisible: prefAtom('attachNoticeVisible'),
  affiliateId: prefAtom('affiliateId'),
  theme: prefAtom('theme'),
  density: prefAtom('density'),
};

export function prefKeys(): PrefKey[] {
  return [...PREF_KEYS];
}

function isPrefKey(key: string): key is PrefKey {
  return Object.hasOwn(SPECS, key);
}

/** What a preference accepts, for the console's help and completion. */
export function prefExpected(key: PrefKey): string {
  return SPECS[key].expected;
}

export function getPref<K extends PrefKey>(key: K, store: Store = getDefaultStore()): PrefValues[K] {
  return store.get(prefAtoms[key]);
}

/**
 * Sets a preference from a typed value or a console string (`yes`, `dark`, `type,level`).
 * Throws with the accepted values when the key or the value is not acceptable.
 */
export function setPref(key: string, value: unknown, store: Store = getDefaultStore()): void {
  if (!isPrefKey(key)) throw new Error(`Unknown preference "${key}". Preferences: ${prefKeys().join(', ')}.`);
  const spec = SPECS[key] as PrefSpec<unknown>;
  const parsed = spec.parse(value);
  if (parsed === undefined) throw new Error(`Invalid value for ${key}: expected ${spec.expected}.`);
  store.set(prefAtoms[key] as PrefAtom<unknown>, parsed);
}

export function resetPref(key: PrefKey, store: Store = getDefaultStore()): void {
  store.set(prefAtoms[key] as PrefAtom<unknown>, RESET);
}

/** The chat box's unsent text is kept per server. */
export function setStoredChatMessage(
  serverId: string,
  message: string,
  store: Store = getDefaultStore(),
): void {
  const { [serverId]: _, ...rest } = store.get(prefAtoms.storedChatMessage);
  store.set(prefAtoms.storedChatMessage, message === '' ? rest : { ...rest, [serverId]: message });
}

// Per-list state: one key per list name (`palisade.pref.list.servers`).

export type SortDirection = 'asc' | 'desc';
export interface SortState {
  column: string;
  direction: SortDirection;
}
export interface ListPrefs {
  filter: string;
  sort: SortState | null;
  /** Visible column ids in order, or null for each column's default. */
  columns: string[] | null;
}

export const LIST_PREF_DEFAULTS: Readonly<ListPrefs> = Object.freeze({
  filter: '',
  sort: null,
  columns: null,
});

const listPrefSpec: PrefSpec<ListPrefs> = {
  parse: (v) => {
    if (v === null || typeof v !== 'object') return undefined;
    const { filter, sort, columns } = v as Record<string, unknown>;
    const sortOk =
      sort === null ||
      (typeof sort === 'object' &&
        typeof (sort as SortState).column === 'string' &&
        ((sort as SortState).direction === 'asc' || (sort as SortState).direction === 'desc'));
    const columnsOk =
      columns === null || (Array.isArray(columns) && columns.every((c) => typeof c === 'string'));
    return typeof filter === 'string' && sortOk && columnsOk
      ? { filter, sort: sort as SortState | null, columns: columns as string[] | null }
      : undefined;
  },
  expected: 'list settings',
};

const listAtoms = new Map<string, PrefAtom<ListPrefs>>();

export function listPrefsAtom(name: string): PrefAtom<ListPrefs> {
  let a = listAtoms.get(name);
  if (!a) {
    a = atomWithStorage(`${PREF_PREFIX}list.${name}`, LIST_PREF_DEFAULTS, storageFor(listPrefSpec), {
      getOnInit: true,
    });
    listAtoms.set(name, a);
  }
  return a;
}

/** Writes part of a list's settings, keeping the rest. */
export const patchListPrefsAtom = atom(null, (get, set, name: string, patch: Partial<ListPrefs>) => {
  const a = listPrefsAtom(name);
  set(a, { ...get(a), ...patch });
});

export const listPrefs = {
  get(name: string, store: Store = getDefaultStore()): ListPrefs {
    return store.get(listPrefsAtom(name));
  },
  set(name: string, patch: Partial<ListPrefs>, store: Store = getDefaultStore()): void {
    store.set(patchListPrefsAtom, name, patch);
  },
};
